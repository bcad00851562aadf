/// The parts of postman-sandbox's `pm` surface beyond the prelude's core, in two pieces of JavaScript:
///
/// - `assertions`, evaluated after chai and before the prelude (which takes chai out of the global
///   object): chai-postman's assertions the prelude lacks — `postmanRequest`, `postmanResponse`,
///   `postmanRequestOrResponse`, `statusCode(code)`, `statusReason(text)`, `statusCodeClass(digit)`,
///   `withoutContent` (204), `unauthorised` (401), `notAcceptable` (406), `withBody` and the chainable
///   `responseSize([bytes])`. chai-postman also compares the reason text for the named statuses; for
///   `unauthorised` (it expects "Unauthorised") and `notAcceptable` (it expects "Acceptable") no server's
///   reason can match, so reqrun checks their status codes only.
/// - `source`, evaluated after the prelude: adds to what `pm.request` is built with `pm.request.to` (chai-postman's
///   `header(name[, value])` on the request), the URL's parts as postman-collection's `Url` has them
///   (`protocol`, `auth`, `host` as an array of labels, `port`, `path` as an array of segments, `hash`;
///   each assignable, which rewrites the URL), `getPath`, `getPathWithQuery`, `getRemote`, `getHost`,
///   `pm.request.getHeaders()` (name → value, an array for a repeated name), `pm.visualizer.set/clear`
///   (kept and ignored: Newman renders no visualizer either), and `pm.vault`, `pm.require`, which fail
///   with the reason (both are Postman app and cloud features).
///
/// The URL is split as postman-collection's `Url.parse` splits it, so a URL that starts with a
/// template (`{{base}}/users`, as pre-request scripts see it) has `host` `['{{base}}']` and no protocol.
enum SandboxRequestAPI {
    static let assertions = #"""
(function (global) {
  'use strict';
  global.chai.use(function (chai, utils) {
    var A = chai.Assertion;
    function isRequest(o) { return !!o && o.__reqrunRequest === true; }
    function isResponse(o) { return !!o && o.__reqrunResponse === true; }
    A.addProperty('postmanRequest', function () {
      this.assert(isRequest(this._obj), 'expecting a postman request object but got #{this}', 'not expecting a postman request object');
    });
    A.addProperty('postmanResponse', function () {
      this.assert(isResponse(this._obj), 'expecting a postman response object but got #{this}', 'not expecting a postman response object');
    });
    A.addProperty('postmanRequestOrResponse', function () {
      this.assert(isRequest(this._obj) || isResponse(this._obj), 'expecting a postman request or response object but got #{this}',
                  'not expecting a postman request or response object');
    });
    function code(assertion) {
      new A(assertion._obj).to.be.postmanResponse;
      return assertion._obj.code;
    }
    A.addMethod('statusCode', function (expected) {
      var actual = code(this);
      this.assert(actual === Number(expected), 'expected response to have status code #{exp} but got #{act}',
                  'expected response to not have status code #{act}', Number(expected), actual);
    });
    A.addMethod('statusReason', function (expected) {
      code(this);
      var actual = this._obj.reason();
      this.assert(actual === String(expected), 'expected response to have status reason #{exp} but got #{act}',
                  'expected response to not have status reason #{act}', String(expected), actual);
    });
    A.addMethod('statusCodeClass', function (digit) {
      var actual = code(this);
      this.assert(Math.floor(actual / 100) === digit, 'expected response code to be #{exp}XX but found #{act}',
                  'expected response code to not be #{exp}XX', digit, actual);
    });
    [['withoutContent', 204], ['unauthorised', 401], ['notAcceptable', 406]].forEach(function (pair) {
      A.addProperty(pair[0], function () {
        var actual = code(this);
        this.assert(actual === pair[1], 'expected response to have status code #{exp} but got #{act}',
                    'expected response to not have status code #{act}', pair[1], actual);
      });
    });
    A.addProperty('withBody', function () {
      code(this);
      var body = this._obj.text();
      this.assert(typeof body === 'string' && body.length > 0, 'expected response to have content in body',
                  'expected response to not have content in body');
    });
    A.addChainableMethod('responseSize', function (bytes) {
      var size = utils.flag(this, 'object');
      if (arguments.length) {
        this.assert(size === bytes, 'expected response size to equal #{exp} but got #{act}',
                    'expected response size to not equal #{exp}', bytes, size);
      }
    }, function () {
      code(this);
      utils.flag(this, 'object', this._obj.responseSize);
    });
  });
})(this);
"""#

    static let source = #"""
(function (global) {
  'use strict';
  var reqrun = global.__reqrun;

  // postman-collection's Url.parse: hash, query, protocol, auth, host and port, path; no scheme needed.
  function split(text) {
    var rest = String(text), parts = { protocol: undefined, auth: undefined, host: [], port: undefined, path: [], query: '', hash: undefined };
    var at = rest.indexOf('#');
    if (at >= 0) { parts.hash = rest.slice(at + 1); rest = rest.slice(0, at); }
    at = rest.indexOf('?');
    if (at >= 0) { parts.query = rest.slice(at + 1); rest = rest.slice(0, at); }
    var scheme = /^([^:/?#{}]+):\/\//.exec(rest);
    if (scheme) { parts.protocol = scheme[1]; rest = rest.slice(scheme[0].length); }
    var slash = rest.indexOf('/'), authority = slash < 0 ? rest : rest.slice(0, slash);
    rest = slash < 0 ? '' : rest.slice(slash);
    at = authority.lastIndexOf('@');
    if (at >= 0) { parts.auth = authority.slice(0, at); authority = authority.slice(at + 1); }
    var port = /:([0-9]*|\{\{[^{}]*\}\})$/.exec(authority);
    if (port && authority.charAt(0) !== '[' || port && /\]:/.test(authority)) { parts.port = port[1]; authority = authority.slice(0, port.index); }
    parts.host = authority ? (authority.charAt(0) === '[' ? [authority] : authority.split('.')) : [];
    parts.path = rest ? rest.slice(1).split('/') : [];
    return parts;
  }
  function join(parts) {
    return (parts.protocol ? parts.protocol + '://' : '') + (parts.auth !== undefined ? parts.auth + '@' : '') +
      parts.host.join('.') + (parts.port ? ':' + parts.port : '') + (parts.path.length ? '/' + parts.path.join('/') : '') +
      (parts.query ? '?' + parts.query : '') + (parts.hash ? '#' + parts.hash : '');
  }

  function extend(request) {
    Object.defineProperty(request, '__reqrunRequest', { value: true });
    Object.defineProperty(request, 'to', { get: function () { return global.pm.expect(this).to; } });
    var url = request.url;
    ['protocol', 'auth', 'host', 'port', 'path', 'hash'].forEach(function (name) {
      Object.defineProperty(url, name, {
        enumerable: true,
        get: function () { return split(url.toString())[name]; },
        set: function (value) {
          var parts = split(url.toString());
          if (name === 'host' || name === 'path') {
            parts[name] = Array.isArray(value) ? value.map(String) : String(value).split(name === 'host' ? '.' : '/');
            if (name === 'path' && parts.path[0] === '') parts.path.shift();
          } else {
            parts[name] = value === null || value === undefined ? undefined : String(value).replace(name === 'protocol' ? /:(\/\/)?$/ : /^#/, '');
          }
          url.update(join(parts));
        }
      });
    });
    url.getPath = function () { return '/' + split(url.toString()).path.join('/'); };
    url.getPathWithQuery = function () { var q = split(url.toString()).query; return url.getPath() + (q ? '?' + q : ''); };
    url.getHost = function () { return split(url.toString()).host.join('.'); };
    url.getRemote = function () { var p = split(url.toString()); return p.host.join('.') + (p.port ? ':' + p.port : ''); };
    request.getHeaders = function () {
      var result = {};
      request.headers.all().forEach(function (h) {
        if (!Object.prototype.hasOwnProperty.call(result, h.key)) result[h.key] = h.value;
        else if (Array.isArray(result[h.key])) result[h.key].push(h.value);
        else result[h.key] = [result[h.key], h.value];
      });
      return result;
    };
  }

  // pm.vault: Postman's vault lives in the Postman app (encrypted on the user's machine, or linked to a
  // cloud secret manager); postman-sandbox asks the app over its bridge. reqrun has no such store.
  function noVault() {
    return Promise.reject(new Error('pm.vault: the Postman Vault is part of the Postman app and reqrun has none; ' +
      'use a secret variable (type "secret" in an environment file) or --var instead'));
  }
  var vault = { get: noVault, set: noVault, unset: noVault };
  function pmRequire(name) {
    throw new Error('pm.require(\'' + String(name) + '\'): Postman\'s package library lives in the Postman cloud and reqrun ' +
      'cannot reach it; use require() for the bundled modules');
  }

  var visualizer = reqrun.lazyDescriptor('visualizer', function () {
    var shown = null;
    return {
      set: function (template, data, options) { shown = { template: template, data: data, options: options }; },
      clear: function () { shown = null; }
    };
  });
  reqrun.onRequest(extend);
  reqrun.pmProperty('visualizer', visualizer);
  reqrun.pmValue('vault', vault);
  reqrun.pmValue('require', pmRequire);
})(this);
"""#
}
