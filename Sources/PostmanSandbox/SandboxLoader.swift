/// The CommonJS loader behind `require()`, evaluated once per run after chai and before the prelude.
///
/// It takes the native `__reqrunLoad(request, parent)` (`SandboxModules.load`, the only way to files, which
/// it keeps in its closure and deletes from the global object) and leaves `__reqrunModules` for the prelude
/// to take: `require` (a script's), `install()` (called at each request's start: the globals that load a
/// module on first use; it also forgets a load that a time or memory limit cut short) and `values` (`atob`, `btoa`, added by the prelude). Each module is
/// evaluated once per run (Node's wrapper: `exports`, `require`, `module`, `__filename`, `__dirname`; a
/// JSON file is parsed), cached by its real path, and a module that throws while loading is forgotten, as
/// Node does. It also adds chai-postman's `jsonSchema` assertion (on ajv) and Postman's legacy `xml2Json`.
enum SandboxLoader {
    static var source: String {
        let provided = SandboxModules.provided.map { "'\($0)'" }.joined(separator: ", ")
        return #"""
(function (global) {
  'use strict';
  var load = global.__reqrunLoad, chai = global.chai, Compile = Function;
  delete global.__reqrunLoad;
  var provided = [\#(provided)];
  var values = { chai: chai }, cache = {}, resolved = {}, loading = 0;
  function own(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }
  function folder(path) { var slash = path.lastIndexOf('/'); return slash < 0 ? '' : path.slice(0, slash); }
  function notFound(name, detail) {
    var error = new Error("Cannot find module '" + name + "'" + detail);
    error.code = 'MODULE_NOT_FOUND';
    return error;
  }
  function evaluate(id, kind, text, memo) {
    var module = { id: id, filename: id, exports: {}, loaded: false, children: [] };
    cache[id] = module;
    try {
      if (kind === 'json') {
        module.exports = JSON.parse(text);
      } else {
        var wrapper = new Compile('exports', 'require', 'module', '__filename', '__dirname', text);
        loading++;
        try { wrapper.call(module.exports, module.exports, requireFrom(id), module, id, folder(id)); } finally { loading--; }
      }
    } catch (e) {
      delete cache[id];
      delete resolved[memo];
      throw e;
    }
    module.loaded = true;
    return module;
  }
  // require() as seen from `parent` ('': a script): a script names only what `provided` lists.
  function requireFrom(parent) {
    function require(name) {
      name = String(name);
      if (parent === '' && own(values, name)) return values[name];
      // Relative names resolve from the module's folder, bare ones from its node_modules chain (Node's rules).
      var memo = (name.charAt(0) === '.' ? folder(parent) : parent) + '\u0000' + name;
      var id = own(resolved, memo) ? resolved[memo] : undefined;
      if (id === undefined || !own(cache, id)) {
        var answer = load(name, parent);
        if (answer === undefined) {
          throw notFound(name, parent === '' || parent.indexOf('reqrun:') === 0 ? ": reqrun's sandbox provides " + provided.join(', ') : '');
        }
        var end = answer.indexOf('\n'), head = end < 0 ? answer : answer.slice(0, end);
        if (head.indexOf('missing ') === 0) {
          throw notFound(name, ": it needs Debian's " + head.slice(8) + ', which is not installed');
        }
        var space = head.indexOf(' ');
        id = head.slice(space + 1);
        resolved[memo] = id;
        if (!own(cache, id)) evaluate(id, head.slice(0, space), answer.slice(end + 1), memo);
      }
      return cache[id].exports;
    }
    return require;
  }
  var scriptRequire = requireFrom('');

  // A global that requires its module when a script first reads it (and becomes a plain value then);
  // undefined when the module's package is missing, so `typeof Buffer` never throws. While a module loads it
  // reads as undefined and stays unloaded, as in Node, which has none of these globals (lodash looks at `_`
  // and `Buffer` when it loads).
  // The descriptor of each such global is made once for the run and defined again at a request's start where
  // the last request read or replaced it (`settled`), deleted it, or may have redefined it (`mustDefine(name)`).
  var lazyDescriptors = {}, settled = {};
  function lazy(name, get, mustDefine) {
    var descriptor = lazyDescriptors[name];
    if (!mustDefine(name) && descriptor && settled[name] !== true && own(global, name)) return;
    settled[name] = false;
    if (!descriptor) {
      var settle = function (value) {
        settled[name] = true;
        Object.defineProperty(global, name, { value: value, writable: true, configurable: true, enumerable: false });
      };
      descriptor = lazyDescriptors[name] = {
        configurable: true, enumerable: false,
        get: function () {
          if (loading > 0) return undefined;
          var value;
          try { value = get(); } catch (e) { value = undefined; }
          settle(value);
          return value;
        },
        set: settle
      };
    }
    Object.defineProperty(global, name, descriptor);
  }
  function lodash() { return scriptRequire('lodash'); }
  function cryptoJS() { return scriptRequire('crypto-js'); }
  function tv4() { return scriptRequire('tv4'); }
  function cheerio() { return scriptRequire('cheerio'); }
  function buffer() { return scriptRequire('buffer').Buffer; }

  // Postman's legacy xml2Json (postman-sandbox's xml2Json.js): xml2js with explicitArray false, trim, attributes
  // under `$`, parsed synchronously; a parse error gives undefined, as there.
  function xml2Json(text) {
    var result = {};
    scriptRequire('xml2js').parseString(text, { explicitArray: false, async: false, trim: true, mergeAttrs: false },
                                        function (error, value) { result = value; });
    return result;
  }

  // ajv 6 (Debian's node-ajv) knows draft-07 by default; a schema whose $schema names draft-04 or draft-06 gets that
  // meta-schema too (draft-04's `id` as well as `$id`).
  function newAjv(settings, schema) {
    var Ajv = scriptRequire('ajv'), draft = schema && typeof schema.$schema === 'string' && /draft-0([46])/.exec(schema.$schema);
    if (!draft) return new Ajv(settings);
    var ajv = new Ajv(Object.assign({ schemaId: 'auto' }, settings));
    ajv.addMetaSchema(scriptRequire('ajv/lib/refs/json-schema-draft-0' + draft[1] + '.json'));
    return ajv;
  }

  var validators = {}, validating = false;
  // chai-postman's jsonSchema: ajv with allErrors (and the options given), on a response's JSON body or any value.
  chai.use(function (chai) {
    chai.Assertion.addMethod('jsonSchema', function (schema, options) {
      new chai.Assertion(schema).to.be.an('object');
      var settings = Object.assign({ allErrors: true, logger: false }, options);
      var data = this._obj && this._obj.__reqrunResponse === true ? this._obj.json() : this._obj;
      // One ajv per options for the run (ajv compiles its meta-schema when made, and keeps each schema it
      // compiled); a fresh one when the kept one refuses a schema (another schema with the same $id).
      var key = JSON.stringify([settings, schema && schema.$schema]), ajv = own(validators, key) ? validators[key] : null, valid, problem;
      if (!ajv) ajv = validators[key] = newAjv(settings, schema);
      validating = true;
      try { valid = ajv.validate(schema, data); } catch (e) {
        if (/already exists/.test(e.message)) ajv = newAjv(settings, schema);
        try { valid = ajv.validate(schema, data); } catch (again) { problem = again.message; }
      }
      validating = false;
      if (problem !== undefined) {
        this.assert(false, 'expected data to satisfy schema but the schema is not usable: ' + problem);
        return;
      }
      this.assert(valid && !ajv.errors, 'expected data to satisfy schema but found following errors: \n' + ajv.errorsText(),
                  'expected data to not satisfy schema', true, valid);
    });
  });

  global.__reqrunModules = {
    require: scriptRequire,
    values: values,
    xml2Json: xml2Json,
    // `require(name)` gives `exports` (for scripts and modules alike), never evaluating a body: the timers'
    // functions live in another source's closure (SandboxTimers).
    provide: function (name, exports) {
      var id = 'reqrun:' + name;
      cache[id] = { id: id, filename: id, exports: exports, loaded: true, children: [] };
    },
    // `mustDefine(name)`: whether to define that global again whatever it is now (`__reqrun.begin`).
    install: function (mustDefine) {
      // A script stopped by a limit while a module loaded ran no catch or finally: forget that load.
      loading = 0;
      var ids = Object.keys(cache);
      for (var i = 0; i < ids.length; i++) if (!cache[ids[i]].loaded) delete cache[ids[i]];
      if (validating) { validators = {}; validating = false; }
      lazy('_', lodash, mustDefine);
      lazy('CryptoJS', cryptoJS, mustDefine);
      lazy('tv4', tv4, mustDefine);
      lazy('cheerio', cheerio, mustDefine);
      lazy('Buffer', buffer, mustDefine);
    }
  };
})(this);
"""#
    }
}
