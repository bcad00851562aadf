/// The JavaScript that builds Postman's sandbox API in the context, evaluated once per run after chai.
///
/// It defines one object, `__reqrun`, that the Swift side drives (a global only until the sandbox has
/// started: `PostmanSandbox.init` takes it out of the global object and keeps it): `begin(json)` before a request's
/// scripts of one event (the request, the response, the variable scopes), `enter(place)` before each
/// script, `end()` after them (returns JSON: assertions, console lines, scopes, request changes). Everything
/// else follows postman-sandbox and chai-postman: `pm.*`, the legacy globals (`tests`, `responseBody`,
/// `responseCode`, `responseTime`, `responseHeaders`, `environment`, `globals`, `postman.*`) and `console`.
/// Globals a script adds are deleted at the start of the next request (`begin` with `fresh`), as Newman
/// gives every request a clean sandbox.
enum SandboxPrelude {
    static let source = #"""
(function (global) {
  'use strict';
  var chai = global.chai;
  delete global.chai;
  delete global.global;
  var state = null;

  // `replacer`: JSON.stringify's, which may stop the text by throwing `variablesOver` (`asText`).
  function text(value, replacer) {
    if (typeof value === 'string') return value;
    if (value === undefined) return 'undefined';
    if (value !== null && typeof value === 'object') {
      try { return JSON.stringify(value, replacer); } catch (e) { if (e === variablesOver) throw e; return String(value); }
    }
    return String(value);
  }
  function errorText(e) {
    if (e && typeof e === 'object' && 'message' in e) return (e.name ? e.name + ': ' : '') + e.message;
    return 'thrown: ' + text(e);
  }
  function own(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }

  // The run's scopes (`pm.environment`, `pm.globals`, `pm.collectionVariables`) keep postman-collection's list
  // order (a plain object's: a new name last, a name set again in its place, one deleted and set again last)
  // within a script. After each script Newman's runtime applies the script's changes to the run's scope as
  // compacted mutations (postman-runtime's event command, postman-collection's MutationTracker with
  // `autoCompact`: the last change of each name, in the order of each name's first change): a name the
  // script unset and set again is back in its place for the next script. Only a removal can make the two
  // orders differ, so nothing is kept until a script's first removal from a scope: `removals[name]` then
  // holds the scope's names at that point (those it had before the script, then those the script added, in
  // order) and the names first changed after it (`later`); `settleOrder` puts the scope in that order.
  var removals = null;
  function removal(name) {
    if (removals === null) removals = {};
    var r = removals[name];
    if (r === undefined) {
      var keys = Object.keys(state.scopes[name]), known = Object.create(null);
      for (var i = 0; i < keys.length; i++) known[keys[i]] = true;
      r = removals[name] = { before: keys, known: known, later: [] };
    }
    return r;
  }
  function changing(r, key) {
    if (r.known[key] !== true) { r.known[key] = true; r.later.push(key); }
  }
  function setIn(name, key, value) {
    keepLegacy(name);
    key = String(key);
    if (removals !== null && removals[name] !== undefined) changing(removals[name], key);
    state.scopes[name][key] = value;
  }
  function unsetIn(name, key) {
    keepLegacy(name);
    changing(removal(name), String(key));
    delete state.scopes[name][key];
  }
  // (`VariableScope.clear` tracks an unset of each name it has, each already known to `removal`.)
  function clearIn(name) {
    keepLegacy(name);
    removal(name);
    state.scopes[name] = {};
  }
  function putValue(object, key, value) {
    if (key === '__proto__') Object.defineProperty(object, key, { value: value, writable: true, enumerable: true, configurable: true });
    else object[key] = value;
  }
  // After a script: each scope it removed a name from, in the order the compacted mutations leave.
  function settleOrder() {
    if (removals === null) return;
    var names = Object.keys(removals);
    for (var n = 0; n < names.length; n++) {
      var r = removals[names[n]], values = state.scopes[names[n]], result = {};
      for (var b = 0; b < r.before.length; b++) if (own(values, r.before[b])) putValue(result, r.before[b], values[r.before[b]]);
      for (var l = 0; l < r.later.length; l++) {
        if (own(values, r.later[l]) && !own(result, r.later[l])) putValue(result, r.later[l], values[r.later[l]]);
      }
      state.scopes[names[n]] = result;
    }
    removals = null;
  }

  // postman-collection's VariableScope: get/set/unset/has/clear/toObject/replaceIn.
  function scopeMethods(name) {
    return {
      get: function (key) { var v = state.scopes[name]; return own(v, key) ? v[key] : undefined; },
      set: function (key, value) { setIn(name, key, value); },
      unset: function (key) { unsetIn(name, key); },
      has: function (key) { return own(state.scopes[name], key); },
      clear: function () { clearIn(name); },
      toObject: function () { return Object.assign({}, state.scopes[name]); },
      replaceIn: function (template) { return replaceIn(template); }
    };
  }
  var scopeMethodsByName = { environment: scopeMethods('environment'), collection: scopeMethods('collection'), globals: scopeMethods('globals') };
  // A new object for every request (as postman-sandbox's), on functions made once for the run.
  function scope(name) {
    var m = scopeMethodsByName[name];
    return { get: m.get, set: m.set, unset: m.unset, has: m.has, clear: m.clear, toObject: m.toObject, replaceIn: m.replaceIn };
  }
  // pm.variables: every scope, local highest (Newman: globals < collection < environment < data < local).
  var order = ['local', 'upper', 'data', 'environment', 'groups', 'collection', 'globals'];
  function lookup(key) {
    for (var i = 0; i < order.length; i++) {
      var values = state.scopes[order[i]];
      if (own(values, key)) return values[key];
    }
    return undefined;
  }
  function uuid() {
    return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, function (c) {
      var r = Math.random() * 16 | 0;
      return (c === 'x' ? r : (r & 0x3 | 0x8)).toString(16);
    });
  }
  function dynamic(name) {
    switch (name) {
      case '$guid': case '$randomUUID': return uuid();
      case '$timestamp': return String(Math.floor(Date.now() / 1000));
      case '$isoTimestamp': return new Date().toISOString();
      case '$randomInt': return String(Math.floor(Math.random() * 1001));
      default: return undefined;
    }
  }
  function replaceIn(template) {
    var result = String(template);
    for (var depth = 0; depth < 10; depth++) {
      var changed = false;
      result = result.replace(/\{\{([^{}]+)\}\}/g, function (whole, name) {
        var value = dynamic(name);
        if (value === undefined) value = lookup(name.trim());
        if (value === undefined) return whole;
        changed = true;
        return text(value);
      });
      if (!changed) break;
    }
    return result;
  }
  var variables = {
    get: lookup,
    set: function (key, value) { state.written.local = true; state.scopes.local[String(key)] = value; },
    unset: function (key) { state.written.local = true; delete state.scopes.local[key]; },
    has: function (key) { return lookup(key) !== undefined; },
    clear: function () { state.written.local = true; state.scopes.local = {}; },
    toObject: function () {
      var result = {};
      for (var i = order.length - 1; i >= 0; i--) Object.assign(result, state.scopes[order[i]]);
      return result;
    },
    replaceIn: replaceIn
  };

  // postman-collection's HeaderList, on an array of {key, value}: names match in any case (RFC 9110 §5.1).
  function headerList(list, onChange) {
    function find(name) {
      var lower = String(name).toLowerCase();
      for (var i = 0; i < list.length; i++) if (list[i].key.toLowerCase() === lower) return i;
      return -1;
    }
    function entry(item, value) {
      if (typeof item === 'string') {
        var colon = item.indexOf(':');
        if (value === undefined && colon > 0) return { key: item.slice(0, colon).trim(), value: item.slice(colon + 1).trim() };
        return { key: item, value: value === undefined ? '' : text(value) };
      }
      return { key: String(item.key), value: item.value === undefined ? '' : text(item.value) };
    }
    return {
      get: function (name) { var i = find(name); return i < 0 ? undefined : list[i].value; },
      has: function (name, value) {
        var lower = String(name).toLowerCase();
        return list.some(function (h) { return h.key.toLowerCase() === lower && (value === undefined || h.value === value); });
      },
      one: function (name) { var i = find(name); return i < 0 ? undefined : { key: list[i].key, value: list[i].value }; },
      all: function () { return list.map(function (h) { return { key: h.key, value: h.value }; }); },
      toObject: function () {
        var result = {};
        list.forEach(function (h) { if (!own(result, h.key)) result[h.key] = h.value; });
        return result;
      },
      each: function (fn) { list.forEach(function (h) { fn({ key: h.key, value: h.value }); }); },
      count: function () { return list.length; },
      add: function (item, value) { list.push(entry(item, value)); onChange(); },
      upsert: function (item, value) {
        var e = entry(item, value), i = find(e.key);
        if (i < 0) list.push(e); else list[i].value = e.value;
        onChange();
      },
      remove: function (name) {
        var lower = String(typeof name === 'object' ? name.key : name).toLowerCase();
        for (var i = list.length - 1; i >= 0; i--) if (list[i].key.toLowerCase() === lower) list.splice(i, 1);
        onChange();
      },
      toString: function () { return list.map(function (h) { return h.key + ': ' + h.value; }).join('\n'); }
    };
  }

  function makeRequest(request) {
    var changed = state.changed;
    var headers = headerList(request.headers, function () { changed.headers = true; });
    // postman-collection's QueryParamList on the URL's query, as written (not decoded); changes rewrite the URL.
    function splitURL() {
      var rest = request.url, hash = '', at = rest.indexOf('#');
      if (at >= 0) { hash = rest.slice(at); rest = rest.slice(0, at); }
      var q = rest.indexOf('?');
      var params = q < 0 || q === rest.length - 1 ? [] : rest.slice(q + 1).split('&').map(function (pair) {
        var eq = pair.indexOf('=');
        return eq < 0 ? { key: pair, value: null } : { key: pair.slice(0, eq), value: pair.slice(eq + 1) };
      });
      return { base: q < 0 ? rest : rest.slice(0, q), params: params, hash: hash };
    }
    function joinURL(parts) {
      var query = parts.params.map(function (p) { return p.value === null ? p.key : p.key + '=' + p.value; }).join('&');
      request.url = parts.base + (query ? '?' + query : '') + parts.hash;
      changed.url = true;
    }
    function param(item, value) {
      if (typeof item === 'string') return { key: item, value: value === undefined ? null : text(value) };
      return { key: String(item.key), value: item.value === undefined || item.value === null ? null : text(item.value) };
    }
    function addParams(items) {
      var parts = splitURL();
      if (typeof items === 'string') items = items.split('&').filter(Boolean).map(function (pair) {
        var eq = pair.indexOf('=');
        return eq < 0 ? { key: pair } : { key: pair.slice(0, eq), value: pair.slice(eq + 1) };
      });
      (Array.isArray(items) ? items : [items]).forEach(function (item) { parts.params.push(param(item)); });
      joinURL(parts);
    }
    function removeParams(names) {
      var drop = (Array.isArray(names) ? names : [names]).map(function (n) { return typeof n === 'object' ? n.key : String(n); });
      var parts = splitURL();
      parts.params = parts.params.filter(function (p) { return drop.indexOf(p.key) < 0; });
      joinURL(parts);
    }
    var query = {
      get: function (key) {
        var found = splitURL().params.filter(function (p) { return p.key === key; });
        return found.length ? found[found.length - 1].value : undefined;
      },
      has: function (key) { return splitURL().params.some(function (p) { return p.key === key; }); },
      all: function () { return splitURL().params; },
      toObject: function () { var o = {}; splitURL().params.forEach(function (p) { o[p.key] = p.value; }); return o; },
      each: function (fn) { splitURL().params.forEach(fn); },
      count: function () { return splitURL().params.length; },
      add: function (item, value) { var parts = splitURL(); parts.params.push(param(item, value)); joinURL(parts); },
      upsert: function (item, value) {
        var e = param(item, value), parts = splitURL(), existing = parts.params.filter(function (p) { return p.key === e.key; });
        if (existing.length) existing[0].value = e.value; else parts.params.push(e);
        joinURL(parts);
      },
      remove: function (key) { removeParams(key); },
      clear: function () { var parts = splitURL(); parts.params = []; joinURL(parts); },
      toString: function () { var p = splitURL().params; return p.map(function (x) { return x.value === null ? x.key : x.key + '=' + x.value; }).join('&'); }
    };
    var url = {
      query: query,
      getQueryString: function () { return query.toString(); },
      toString: function () { return request.url; },
      update: function (value) { request.url = String(value); changed.url = true; },
      getHost: function () { var m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#:]*)/i.exec(request.url); return m ? m[1] : ''; },
      getPath: function () { var m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/i.exec(request.url); return m && m[1] ? m[1] : '/'; }
    };
    var body = request.body ? {
      mode: request.body.mode,
      toString: function () { return request.body.raw === undefined ? '' : request.body.raw; },
      update: function (value) {
        request.body.mode = 'raw';
        request.body.raw = typeof value === 'string' ? value : text(value && value.raw !== undefined ? value.raw : value);
        changed.body = true;
      },
      isEmpty: function () { return !request.body.raw; }
    } : undefined;
    if (body) {
      Object.defineProperty(body, 'raw', {
        enumerable: true,
        get: function () { return request.body.raw; },
        set: function (value) { body.update(value); }
      });
    }
    var result = {
      headers: headers, name: request.name, id: request.id, body: body,
      addHeader: function (item) { headers.add(item); },
      removeHeader: function (name) { headers.remove(name); },
      upsertHeader: function (item) { headers.upsert(item); },
      addQueryParams: addParams,
      removeQueryParams: removeParams
    };
    Object.defineProperty(result, 'url', {
      enumerable: true,
      get: function () { return url; },
      set: function (value) { url.update(typeof value === 'object' && value !== null ? value.toString() : value); }
    });
    Object.defineProperty(result, 'method', {
      enumerable: true,
      get: function () { return request.method; },
      set: function (value) { request.method = String(value).toUpperCase(); changed.method = true; }
    });
    return result;
  }

  // RFC 6265 §4.1: `name=value; Attr=…; Flag` of each Set-Cookie field, as postman-collection's Cookie.
  function parseCookies(fields) {
    return fields.filter(function (h) { return h.key.toLowerCase() === 'set-cookie'; }).map(function (h) {
      var parts = h.value.split(';'), first = parts.shift(), eq = first.indexOf('=');
      var cookie = { name: (eq < 0 ? first : first.slice(0, eq)).trim(), value: eq < 0 ? '' : first.slice(eq + 1).trim(),
                     httpOnly: false, secure: false };
      parts.forEach(function (part) {
        var at = part.indexOf('='), key = (at < 0 ? part : part.slice(0, at)).trim().toLowerCase(), value = at < 0 ? '' : part.slice(at + 1).trim();
        if (key === 'httponly') cookie.httpOnly = true;
        else if (key === 'secure') cookie.secure = true;
        else if (key === 'domain') cookie.domain = value;
        else if (key === 'path') cookie.path = value;
        else if (key === 'expires') cookie.expires = value;
        else if (key === 'max-age') cookie.maxAge = Number(value);
        else if (key === 'samesite') cookie.sameSite = value;
      });
      return cookie;
    });
  }
  function cookieList(cookies) {
    function find(name) { for (var i = cookies.length - 1; i >= 0; i--) if (cookies[i].name === name) return cookies[i]; return undefined; }
    return {
      get: function (name) { var c = find(name); return c ? c.value : undefined; },
      one: function (name) { return find(name); },
      has: function (name) { return find(name) !== undefined; },
      all: function () { return cookies.slice(); },
      toObject: function () { var o = {}; cookies.forEach(function (c) { o[c.name] = c.value; }); return o; },
      each: function (fn) { cookies.forEach(fn); },
      count: function () { return cookies.length; }
    };
  }

  // The header list and cookies are built when first read (the same object on every read; an assignment
  // replaces them, as it replaced the plain values they were).
  function makeResponse(response) {
    var headers, cookies, cookieAPI;
    var parsed, parsedOK = false;
    function allCookies() { return cookies || (cookies = parseCookies(response.headers)); }
    function replace(object, name, value) {
      Object.defineProperty(object, name, { value: value, writable: true, enumerable: true, configurable: true });
    }
    return {
      __reqrunResponse: true,
      code: response.code,
      status: response.reason,
      get headers() { return headers || (headers = headerList(response.headers, function () {})); },
      set headers(value) { replace(this, 'headers', value); },
      responseTime: response.responseTime,
      responseSize: response.responseSize,
      text: function () { return response.body; },
      json: function () {
        if (!parsedOK) { parsed = JSON.parse(response.body); parsedOK = true; }
        return parsed;
      },
      reason: function () { return response.reason; },
      get cookies() { return cookieAPI || (cookieAPI = cookieList(allCookies())); },
      set cookies(value) { replace(this, 'cookies', value); },
      get __cookies() { return allCookies(); },
      set __cookies(value) { replace(this, '__cookies', value); },
      get to() { return chai.expect(this).to; }
    };
  }

  // chai-postman's assertions on pm.response (status, header, ok, success, json, jsonBody, …).
  chai.use(function (chai, utils) {
    var A = chai.Assertion;
    function isResponse(object) { return object && object.__reqrunResponse === true; }
    function statusClass(name, test, words) {
      A.addProperty(name, function () {
        var code = this._obj.code;
        this.assert(test(code), 'expected response code to be ' + words + ' but found #{act}',
                    'expected response code to not be ' + words + ' but found #{act}', undefined, code);
      });
    }
    A.addMethod('status', function (expected) {
      var response = this._obj;
      if (typeof expected === 'number') {
        this.assert(response.code === expected, 'expected response to have status code #{exp} but got #{act}',
                    'expected response to not have status code #{act}', expected, response.code);
      } else {
        this.assert(response.status === expected, 'expected response to have status reason #{exp} but got #{act}',
                    'expected response to not have status reason #{act}', expected, response.status);
      }
    });
    A.addMethod('header', function (name, value) {
      var headers = this._obj.headers, what = this._obj.__reqrunRequest ? 'request' : 'response';
      var present = headers.has(name);
      if (arguments.length < 2) {
        this.assert(present, 'expected ' + what + ' to have header with key \'' + name + '\'',
                    'expected ' + what + ' to not have header with key \'' + name + '\'', name);
        return;
      }
      var actual = headers.get(name);
      this.assert(present && actual === value, 'expected \'' + name + '\' ' + what + ' header to be #{exp} but got #{act}',
                  'expected \'' + name + '\' ' + what + ' header to not be #{act}', value, actual);
    });
    A.overwriteProperty('ok', function (_super) {
      return function () {
        if (!isResponse(this._obj)) return _super.call(this);
        var code = this._obj.code;
        this.assert(code === 200, 'expected response code to be 200 but found #{act}',
                    'expected response code to not be 200 but found #{act}', 200, code);
      };
    });
    statusClass('success', function (c) { return c >= 200 && c < 300; }, '2XX');
    statusClass('info', function (c) { return c >= 100 && c < 200; }, '1XX');
    statusClass('redirection', function (c) { return c >= 300 && c < 400; }, '3XX');
    statusClass('clientError', function (c) { return c >= 400 && c < 500; }, '4XX');
    statusClass('serverError', function (c) { return c >= 500 && c < 600; }, '5XX');
    statusClass('error', function (c) { return c >= 400 && c < 600; }, '4XX or 5XX');
    statusClass('accepted', function (c) { return c === 202; }, '202');
    statusClass('badRequest', function (c) { return c === 400; }, '400');
    statusClass('unauthorized', function (c) { return c === 401; }, '401');
    statusClass('forbidden', function (c) { return c === 403; }, '403');
    statusClass('notFound', function (c) { return c === 404; }, '404');
    statusClass('rateLimited', function (c) { return c === 429; }, '429');
    A.overwriteProperty('json', function (_super) {
      return function () {
        if (!isResponse(this._obj)) return _super.call(this);
        var type = this._obj.headers.get('content-type') || '';
        this.assert(/^application\/([a-z.+-]*\+)?json/i.test(type) || /\/json/i.test(type),
                    'expected response to have json body (content-type) but got #{act}',
                    'expected response to not have json body', undefined, type);
      };
    });
    A.addMethod('body', function (expected) {
      var body = this._obj.text();
      if (arguments.length === 0) {
        this.assert(body.length > 0, 'expected response to have content in body', 'expected response to not have content in body');
      } else if (expected instanceof RegExp) {
        this.assert(expected.test(body), 'expected response body text to match #{exp} but got #{act}',
                    'expected response body text #{act} to not match #{exp}', expected, body);
      } else if (typeof expected === 'string') {
        this.assert(body === expected, 'expected response body to equal #{exp} but got #{act}',
                    'expected response body to not equal #{exp}', expected, body);
      } else {
        var json;
        try { json = this._obj.json(); } catch (e) { json = undefined; }
        this.assert(utils.eql(json, expected), 'expected response body json to equal #{exp} but got #{act}',
                    'expected response body json to not equal #{exp}', expected, json);
      }
    });
    A.addChainableMethod('responseTime', function (limit) {
      var time = this._obj.responseTime;
      this.assert(time === limit, 'expected response to have responseTime #{exp} but got #{act}',
                  'expected response to not have responseTime #{exp}', limit, time);
    }, function () {
      utils.flag(this, 'object', this._obj.responseTime);
    });
    A.addChainableMethod('jsonBody', function (path, value) {
      var body;
      try { body = this._obj.json(); } catch (e) { body = undefined; }
      if (arguments.length === 0) return;
      if (typeof path === 'object' && path !== null) {
        new A(body).to.eql(path);
        return;
      }
      var current = body, found = true;
      String(path).split('.').forEach(function (part) {
        if (found && current !== null && typeof current === 'object' && own(current, part)) current = current[part];
        else found = false;
      });
      if (arguments.length === 1) {
        this.assert(found, 'expected response body json to have path #{exp}', 'expected response body json to not have path #{exp}', path);
      } else {
        this.assert(found && utils.eql(current, value), 'expected response body json at #{exp} to be ' + text(value) + ' but got #{act}',
                    'expected response body json at #{exp} to not be #{act}', path, found ? current : undefined);
      }
    }, function () {
      var ok = true;
      try { this._obj.json(); } catch (e) { ok = false; }
      if (utils.flag(this, 'negate')) return;
      this.assert(ok, 'expected response body to be a valid json but got error', 'expected response body to not be a valid json');
    });
  });

  // An event's test names and errors are bounded as its console text is (`eventTextBound` UTF-16 units in all,
  // beyond which each is cut to 256): a loop naming a thousand tests after one large string costs the script
  // almost nothing, while `end`'s JSON of them and its copies in Swift and the record would cost gigabytes.
  function assertionText(value) {
    if (state.assertionUsed + value.length <= eventTextBound) { state.assertionUsed += value.length; return value; }
    state.assertionUsed = eventTextBound;
    return value.length <= 256 ? value : value.slice(0, 256) + '… (' + (value.length - 256)
      + ' more characters left out: more than 16 Mi characters of test names and errors in one event)';
  }
  function assertionError(e) { return assertionText(errorText(e)); }

  function test(name, fn) {
    // Failed until its function returns: one the time limit or the memory bound stops (an exception no
    // `catch` sees) did not pass.
    var assertion = { name: assertionText(text(name)), passed: false, skipped: false, error: 'the script was stopped before this test finished',
                      place: state.place };
    state.assertions.push(assertion);
    if (typeof fn !== 'function') { assertion.passed = assertion.skipped = true; assertion.error = null; return; }
    try {
      var result = fn();
      if (result && typeof result.then === 'function') {
        // An async function: failed as above until its promise settles (the jobs run when the script returns),
        // so one the limits stop while it waits, or one that never settles, did not pass either.
        result.then(function () { assertion.passed = true; assertion.error = null; },
                    function (e) { assertion.passed = false; assertion.error = assertionError(e); });
      } else {
        assertion.passed = true;
        assertion.error = null;
      }
    } catch (e) {
      assertion.passed = false;
      assertion.error = assertionError(e);
    }
  }
  test.skip = function (name) {
    state.assertions.push({ name: assertionText(text(name)), passed: true, skipped: true, error: null, place: state.place });
  };

  function log(level) {
    return function () {
      var parts = [];
      // An Error as Node's console prints its first line, `TypeError: message` (JSON.stringify gives `{}`).
      for (var i = 0; i < arguments.length; i++) parts.push(arguments[i] instanceof Error ? errorText(arguments[i]) : text(arguments[i]));
      var line = (level === 'log' ? '' : level + ': ') + parts.join(' ');
      // An event's console text is bounded (`eventTextBound` UTF-16 units): the lines share the strings they were
      // given, so a loop logging one large string costs the script nothing, while `end`'s JSON of them, its copy in
      // Swift, the terminal and the record would cost gigabytes that no bound sees. Later lines are counted, not kept.
      if (state.consoleLeftOut > 0 || state.consoleUsed + line.length > eventTextBound) { state.consoleLeftOut++; return; }
      state.consoleUsed += line.length;
      state.console.push(line);
    };
  }
  // An event's console text, and apart from it its test names and errors, in UTF-16 units.
  var eventTextBound = 16 * 1024 * 1024;
  var console = { log: log('log'), info: log('info'), warn: log('warn'), error: log('error'), debug: log('debug') };

  var legacy = {
    setEnvironmentVariable: function (k, v) { setIn('environment', k, v); },
    getEnvironmentVariable: function (k) { return scope('environment').get(k); },
    clearEnvironmentVariable: function (k) { unsetIn('environment', k); },
    clearEnvironmentVariables: function () { clearIn('environment'); },
    setGlobalVariable: function (k, v) { setIn('globals', k, v); },
    getGlobalVariable: function (k) { return scope('globals').get(k); },
    clearGlobalVariable: function (k) { unsetIn('globals', k); },
    clearGlobalVariables: function () { clearIn('globals'); },
    getResponseHeader: function (name) { var r = currentResponse(); return r ? r.headers.get(name) : undefined; }
  };

  // The browsers' atob/btoa on Latin-1 strings (HTML's forgiving-base64), which postman-sandbox provides.
  var alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  function btoa(input) {
    var text = String(input), out = '';
    for (var i = 0; i < text.length; i++) {
      if (text.charCodeAt(i) > 255) throw new Error('btoa: the string has characters outside Latin-1');
    }
    for (var j = 0; j < text.length; j += 3) {
      var a = text.charCodeAt(j), b = text.charCodeAt(j + 1), c = text.charCodeAt(j + 2);
      var n = (a << 16) | ((b || 0) << 8) | (c || 0);
      out += alphabet[n >> 18 & 63] + alphabet[n >> 12 & 63] + (isNaN(b) ? '=' : alphabet[n >> 6 & 63]) + (isNaN(c) ? '=' : alphabet[n & 63]);
    }
    return out;
  }
  function atob(input) {
    var text = String(input).replace(/[\t\n\f\r ]/g, '');
    if (text.length % 4 === 0) text = text.replace(/==?$/, '');
    if (text.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(text)) throw new Error('atob: the string is not valid base64');
    var out = '', bits = 0, value = 0;
    for (var i = 0; i < text.length; i++) {
      value = (value << 6) | alphabet.indexOf(text[i]);
      bits += 6;
      if (bits >= 8) { bits -= 8; out += String.fromCharCode((value >> bits) & 255); }
    }
    return out;
  }
  define('atob', atob);
  define('btoa', btoa);
  // The iteration's data row (--iteration-data), read only as in postman-sandbox.
  var iterationData = {
    get: function (key) { return own(state.scopes.data, key) ? state.scopes.data[key] : undefined; },
    has: function (key) { return own(state.scopes.data, key); },
    toObject: function () { return Object.assign({}, state.scopes.data); },
    toJSON: function () { return Object.assign({}, state.scopes.data); },
    replaceIn: function (template) { return replaceIn(template); }
  };
  legacy.getResponseCookie = function (name) {
    var response = currentResponse();
    if (!response) return undefined;
    var cookies = response.__cookies;
    for (var i = cookies.length - 1; i >= 0; i--) if (cookies[i].name === name) return cookies[i];
    return undefined;
  };

  // Values as scripts set them (a number stays a number, an object an object), for the rest of the run:
  // Swift keeps their text, and a value whose text is unchanged comes back as it was set.
  var typed = { globals: {}, collection: {}, environment: {}, local: {} };
  var typedNames = Object.keys(typed), typedAny = false;
  // The scopes (and `pm.info`'s iteration) as the last request left them: `begin` replaces only those sent.
  var held = { globals: {}, collection: {}, environment: {}, local: {}, groups: {}, upper: {}, data: {} };
  var heldInfo = { iteration: 0, iterationCount: 1 };
  // A scope sent again gets back each value whose text is unchanged as it was set. One not sent is the
  // object the context holds, where each value is still as set: what was sent before is what `end` wrote
  // (`heldText`), so a value whose text is no longer that (a `toJSON` that changed) becomes that text, as it
  // would have come back from Swift.
  var heldText = {};
  function restoreTypes(sent) {
    if (!typedAny) return;
    for (var n = 0; n < typedNames.length; n++) {
      var name = typedNames[n], kept = typed[name], keys = Object.keys(kept);
      if (keys.length === 0) continue;
      var isSent = own(sent, name), values = isSent ? sent[name] : held[name], texts = heldText[name];
      for (var k = 0; k < keys.length; k++) {
        var key = keys[k];
        if (!own(values, key)) continue;
        if (isSent) { if (values[key] === text(kept[key])) values[key] = kept[key]; }
        else if (text(kept[key]) !== texts[key]) values[key] = texts[key];
      }
    }
  }
  // The scopes `end` turns to text are bounded (`variableBound` UTF-16 units in one event, names and values): a
  // thousand variables holding one large string, or an array of it, cost the script almost nothing, while their
  // text, `end`'s JSON and its copies in Swift would cost gigabytes that no bound sees. Past it `end` throws: Swift
  // then reads nothing of the event (the request fails with this error) and sends every scope again at the next
  // event, so the values the context holds are the run's again; the objects kept for their types go too.
  // (A string, not an Error: an Error's position would be the sandbox's own source, read as one in the script's.)
  var variableBound = 64 * 1024 * 1024,
      variablesOver = 'the variables the scripts set hold more than 64 Mi characters of text: their changes in this event are not kept';
  function countText(length, name) {
    state.variableUsed += length;
    if (state.variableUsed <= variableBound) return;
    typed[name] = {};
    heldText[name] = {};
    throw variablesOver;
  }
  function asText(name) {
    var values = state.scopes[name], result = {}, kept = {}, keys = Object.keys(values);
    // An object's JSON is counted as it is written, and stopped there.
    var counted = function (key, item) { countText(key.length + (typeof item === 'string' ? item.length : 1), name); return item; };
    for (var i = 0; i < keys.length; i++) {
      var key = keys[i], value = values[key];
      if (typeof value === 'string') countText(key.length + value.length, name);
      result[key] = text(value, counted);
      if (typeof value !== 'string') kept[key] = value;
    }
    // A variable named `__proto__` does not reach the text (the assignment above sets no property): it goes
    // from the values the context keeps too, as it did when every scope came from Swift's text.
    if (own(values, '__proto__')) delete values['__proto__'];
    typed[name] = kept;
    heldText[name] = result;
    if (!typedAny) for (var any in kept) { typedAny = true; break; }
    return result;
  }
  // A scope's text for `end` when a script changed it (its methods mark it: `keepLegacy`) or it holds a value
  // set as an object, which a script may have changed in place; else undefined (left out: Swift keeps what it
  // sent). Four scopes turned to text and read back for every request were a part of its fixed cost.
  function changedText(name) {
    if (state.written[name] === true) return asText(name);
    for (var key in typed[name]) return asText(name);
    return undefined;
  }

  // require() and the globals that load a module when first read (SandboxLoader).
  var modules = global.__reqrunModules, legacyRequest = global.__reqrunLegacy.request;
  delete global.__reqrunModules;
  delete global.__reqrunLegacy;
  modules.values.atob = atob;
  modules.values.btoa = btoa;
  define('require', modules.require);
  define('xml2Json', modules.xml2Json);

  // postman.setNextRequest / pm.execution.setNextRequest: a request's name or id, or null to stop; the last
  // call of the request's scripts wins (postman-runtime).
  function setNextRequest(next) {
    state.next = { value: next === null || next === undefined ? null : String(next) };
  }
  legacy.setNextRequest = setNextRequest;

  var baseline = null, scanAll = false, staged = {}, lastStaged = {};
  function define(name, value) {
    Object.defineProperty(global, name, { value: value, writable: true, configurable: true, enumerable: false });
  }
  // The globals that are the same for the whole run are defined at the first `begin` and again only where a
  // script may have changed one: each after a script whose text names `defineProperty` (`full`: it may have
  // made one an accessor, or enumerable), else a value that is no longer the run's (assigned or deleted), a
  // legacy accessor whose setter ran (`replaced`) or that is gone. Defining them all again at each request
  // was most of `begin`'s fixed cost (callgrind: about 12 `defineProperty` calls with their descriptors).
  // `recreated`: the sandbox's globals the sweep found enumerable (deleted, then made again by an assignment).
  var replaced = {}, mayHaveDefined = true, full = true, recreated = {};
  function mustDefine(name) { return full || recreated[name] === true; }
  var constants = [['postman', legacy], ['console', console], ['require', modules.require], ['xml2Json', modules.xml2Json],
                   ['atob', atob], ['btoa', btoa]];
  var accessorNames = ['request', 'environment', 'globals', 'data'];
  var responseNames = ['responseBody', 'responseCode', 'responseTime', 'responseHeaders', 'responseCookies'];
  function keepAccessor(name) {
    if (mustDefine(name) || replaced[name] === true || !own(global, name)) {
      Object.defineProperty(global, name, globalLazy[name]);
      replaced[name] = false;
    }
  }
  // A per-request value: assigned where the property is still the plain one `define` made.
  function put(name, value) {
    if (!mustDefine(name) && own(global, name)) global[name] = value;
    else define(name, value);
  }
  function defineRunGlobals() {
    for (var c = 0; c < constants.length; c++) {
      if (mustDefine(constants[c][0]) || global[constants[c][0]] !== constants[c][1]) define(constants[c][0], constants[c][1]);
    }
    for (var a = 0; a < accessorNames.length; a++) keepAccessor(accessorNames[a]);
    modules.install(mustDefine);
  }

  // What a request's scripts may read but seldom all do is built on the first read, once per request (the
  // same object on every read), from descriptors made once for the run: building every `pm.*` object and
  // legacy global for every request was most of `begin`'s instructions (callgrind). An assignment replaces
  // the property with a plain value, as it replaced the value before.
  // pm.request, built on first read (`requestHooks`: what the later sources add to it, in their order).
  var requestHooks = [];
  function currentRequest() {
    if (state.request === undefined) {
      // The legacy `request` is the request as it was before any script changed it.
      if (!own(state.built, ' request')) state.built[' request'] = legacyRequest(state.requestData);
      state.request = makeRequest(state.requestData);
      for (var h = 0; h < requestHooks.length; h++) requestHooks[h](state.request);
    }
    return state.request;
  }
  function currentResponse() {
    if (state.response === undefined) state.response = state.responseData ? makeResponse(state.responseData) : null;
    return state.response;
  }
  // `target`: the object it is defined on when that is the global object (whose setters get no `this`);
  // what a global's getter built is kept in `built` under its name after a space, apart from pm's.
  function lazyDescriptor(name, enumerable, build, target) {
    var key = target ? ' ' + name : name;
    return {
      configurable: true, enumerable: enumerable,
      get: function () {
        var built = state.built;
        if (!own(built, key)) built[key] = build();
        return built[key];
      },
      set: function (value) {
        if (target) replaced[name] = true;
        Object.defineProperty(target || this, name, { value: value, writable: true, configurable: true, enumerable: enumerable });
      }
    };
  }
  var pmLazy = {
    request: { configurable: true, enumerable: true, get: currentRequest,
               set: function (value) { Object.defineProperty(this, 'request', { value: value, writable: true, configurable: true, enumerable: true }); } },
    response: { configurable: true, enumerable: true, get: currentResponse,
                set: function (value) { Object.defineProperty(this, 'response', { value: value, writable: true, configurable: true, enumerable: true }); } },
    environment: lazyDescriptor('environment', true, function () { return scope('environment'); }),
    collectionVariables: lazyDescriptor('collectionVariables', true, function () { return scope('collection'); }),
    globals: lazyDescriptor('globals', true, function () { return scope('globals'); }),
    execution: lazyDescriptor('execution', true, function () {
      return { skipRequest: function () { state.skip = true; }, setNextRequest: setNextRequest,
               location: reqrun.location(state.location, function () { return state.place; }) };
    })
  };
  // Each request's `pm`, made by one object literal: its own values, then `pmLazy`'s properties in their order,
  // each accessor calling the descriptor's `get` and `set` (`Object.defineProperties` with about ten
  // descriptors was 21,000 instructions a request, the literal 2,300: callgrind of the C API). Made at the
  // first `begin`, after every source added its properties; null (defineProperties then) if one is not what
  // a literal makes (enumerable, configurable, a value also writable).
  var makePm, makeFunction = Function, apply = Reflect.apply;
  function pmMaker() {
    var names = Object.keys(pmLazy), descriptors = [], setup = [];
    var parts = ['test: a', 'expect: b', 'variables: c', 'iterationData: e', 'info: f'];
    for (var i = 0; i < names.length; i++) {
      var d = pmLazy[names[i]], key = JSON.stringify(names[i]);
      descriptors.push(d);
      if (d.enumerable !== true || d.configurable !== true) return null;
      if ('value' in d) {
        if (d.writable !== true || 'get' in d || 'set' in d) return null;
        setup.push('v' + i + ' = d[' + i + '].value');
        parts.push(key + ': v' + i);
        continue;
      }
      if (typeof d.get === 'function') {
        setup.push('g' + i + ' = d[' + i + '].get');
        parts.push('get ' + key + '() { return apply(g' + i + ', this, []); }');
      }
      if (typeof d.set === 'function') {
        setup.push('s' + i + ' = d[' + i + '].set');
        parts.push('set ' + key + '(value) { apply(s' + i + ', this, [value]); }');
      }
    }
    return makeFunction('d', 'apply', (setup.length ? 'var ' + setup.join(', ') + ';\n' : '')
                        + 'return function (a, b, c, e, f) { return { ' + parts.join(', ') + ' }; };')(descriptors, apply);
  }
  // The legacy globals, as copies made when first read;
  // `environment` and `globals` show the values as they were at the start, so their copies are made before
  // a script's first change to them (`keepLegacy`) if no script read them before.
  // Every change to a scope goes through here, which marks it for `end`.
  function keepLegacy(name) {
    state.written[name] = true;
    if ((name === 'environment' || name === 'globals') && !own(state.built, ' ' + name)) state.built[' ' + name] = Object.assign({}, state.scopes[name]);
  }
  var globalLazy = {
    request: lazyDescriptor('request', false, function () { return legacyRequest(state.requestData); }, global),
    environment: lazyDescriptor('environment', false, function () { return Object.assign({}, state.scopes.environment); }, global),
    globals: lazyDescriptor('globals', false, function () { return Object.assign({}, state.scopes.globals); }, global),
    data: lazyDescriptor('data', false, function () { return Object.assign({}, state.scopes.data); }, global),
    responseHeaders: lazyDescriptor('responseHeaders', false, function () { return currentResponse().headers.toObject(); }, global),
    responseCookies: lazyDescriptor('responseCookies', false, function () { return currentResponse().__cookies.slice(); }, global)
  };

  // The machinery the later sources extend and Swift drives: a global only while the sources load, taken out
  // of the global object before any script runs (`JavaScriptEngine.takeGlobal`), so scripts cannot reach it.
  var reqrun = global.__reqrun = {
    // For the API in files of their own (SandboxSendRequest).
    internals: { makeResponse: makeResponse, cookieList: cookieList, parseCookies: parseCookies },
    // Later sources' additions to pm.request, called with it when a script first reads it.
    onRequest: function (hook) { requestHooks.push(hook); },
    // A property (of `pm`) built by `build` when first read in a request (made once, defined at each `begin`).
    lazyDescriptor: function (name, build) { return lazyDescriptor(name, true, build); },
    // A property of every request's `pm` after the prelude's own, in the order added: `descriptor`, or a plain
    // value (enumerable and writable, as an assignment makes it). All go on in one `defineProperties`.
    pmProperty: function (name, descriptor) { pmLazy[name] = descriptor; makePm = undefined; },
    pmValue: function (name, value) {
      pmLazy[name] = { value: value, writable: true, enumerable: true, configurable: true };
      makePm = undefined;
    },
    // A global of the whole run after the prelude's own (SandboxTimers' `setTimeout`…), defined at each `begin`
    // where a script replaced or deleted it.
    runGlobal: function (name, value) { constants.push([name, value]); },
    // The loader's `provide` (SandboxLoader): a module's exports made by a later source.
    provide: modules.provide,
    // Whether a script of this event called `pm.execution.skipRequest()`.
    skipped: function () { return state !== null && state.skip === true; },
    // Swift, before `begin`: the response's body (undefined when it is in the JSON) and its header fields as
    // JSON, parsed when a script first reads them.
    stage: function (body, headersJSON) { staged.body = body; staged.headers = headersJSON; },
    begin: function (json) {
      var input = JSON.parse(json);
      // The body and header fields of the last `stage` again, when Swift did not send them again.
      if (input.sameBody) staged.body = lastStaged.body; else lastStaged.body = staged.body;
      if (input.sameHeaders) staged.headers = lastStaged.headers; else lastStaged.headers = staged.headers;
      if (input.response) {
        var response = input.response, fields = staged.headers, parsedFields;
        // Own property only: a `body` an earlier script put on Object.prototype is not the response's.
        if (!own(response, 'body')) response.body = staged.body;
        Object.defineProperty(response, 'headers', {
          configurable: true, enumerable: true,
          get: function () { return parsedFields || (parsedFields = fields ? JSON.parse(fields) : []); }
        });
      }
      staged.body = staged.headers = undefined;
      if (input.fresh && baseline) {
        // A loop rather than forEach: a call from native code per global name was a fifth of the hand-off
        // (callgrind, interpreter). What a script adds by assignment (`x = 1`, `this.x = 1`) is enumerable:
        // `Object.keys` finds it in 4,000 instructions where all 81 names cost 141,000; every name is looked
        // at after scripts that may have defined one that is not (their text names `defineProperty`).
        var names = scanAll ? Object.getOwnPropertyNames(global) : Object.keys(global);
        recreated = {};
        for (var n = 0; n < names.length; n++) {
          if (baseline[names[n]] !== true) { try { delete global[names[n]]; } catch (e) {} } else recreated[names[n]] = true;
        }
        scanAll = false;
      }
      if (input.defines) scanAll = true;
      // Only the scopes that differ from what the context holds are sent (Swift keeps what it last sent and
      // what `end` gave back); the others are the objects the last request's scripts left, values as set.
      var sent = input.scopes || {}, sentNames = Object.keys(sent);
      for (var s = 0; s < sentNames.length; s++) held[sentNames[s]] = sent[sentNames[s]];
      restoreTypes(sent);
      held.data = {};
      var pairs = input.data || [], dataJSON = input.dataJSON || {}, jsonKeys = Object.keys(dataJSON);
      for (var d = 0; d < pairs.length; d++) held.data[pairs[d].key] = pairs[d].value;
      for (var j = 0; j < jsonKeys.length; j++) held.data[jsonKeys[j]] = JSON.parse(dataJSON[jsonKeys[j]]);
      var info = input.info || heldInfo;
      heldInfo = info;
      removals = null;
      state = { scopes: held, assertions: [], console: [], consoleUsed: 0, consoleLeftOut: 0, assertionUsed: 0, variableUsed: 0, place: '', changed: {}, tests: {}, built: {}, written: {},
                request: undefined, requestData: input.request, response: undefined, responseData: input.response || null,
                location: input.location || [input.request.name] };
      var pmInfo = { eventName: input.event, iteration: info.iteration, iterationCount: info.iterationCount,
                     requestName: input.request.name, requestId: input.request.id };
      if (makePm === undefined) makePm = pmMaker();
      var pm;
      if (makePm) {
        pm = makePm(test, chai.expect, variables, iterationData, pmInfo);
      } else {
        pm = { test: test, expect: chai.expect, variables: variables, iterationData: iterationData, info: pmInfo };
        Object.defineProperties(pm, pmLazy);
      }
      // Everything again after a script that may have redefined one, and at a request's second event (whose
      // begin does not sweep, so `recreated` is not known).
      full = mayHaveDefined || !input.fresh;
      mayHaveDefined = !!input.defines;
      put('pm', pm);
      defineRunGlobals();
      put('tests', state.tests);
      put('iteration', info.iteration);
      if (!input.response) {
        for (var g = 0; g < responseNames.length; g++) delete global[responseNames[g]];
      } else {
        var r = input.response;
        put('responseBody', r.body);
        put('responseCode', { code: r.code, name: r.reason, detail: r.reason });
        put('responseTime', r.responseTime);
        keepAccessor('responseHeaders');
        keepAccessor('responseCookies');
      }
      if (!baseline) {
        baseline = Object.create(null);
        var all = Object.getOwnPropertyNames(global);
        for (var b = 0; b < all.length; b++) baseline[all[b]] = true;
      }
    },
    enter: function (place) {
      if (state.skip) return 'skip';
      state.place = place;
      state.tests = {};
      global.tests = state.tests;
      return '';
    },
    // Legacy `tests["name"] = value` of the script that just ran.
    leave: function () {
      settleOrder();
      var tests = global.tests;
      if (tests && typeof tests === 'object') {
        Object.keys(tests).forEach(function (name) {
          state.assertions.push({ name: assertionText(name), passed: !!tests[name], skipped: false, error: null, place: state.place });
        });
      }
    },
    // Only what is not the default is written (no console lines, no change to the request, no skip): the
    // common result is the assertions and one scope.
    end: function () {
      // (A script that failed had no `leave`: its changes apply too, as postman-runtime applies a failed script's.)
      settleOrder();
      var out = { assertions: state.assertions }, changed = state.changed, request = state.requestData;
      if (state.consoleLeftOut > 0) {
        state.console.push('warn: ' + state.consoleLeftOut + ' more console line' + (state.consoleLeftOut === 1 ? '' : 's')
          + ' left out: more than 16 Mi characters of console text in one event (pre-request or test)');
        state.consoleLeftOut = 0;
      }
      if (state.console.length) out.console = state.console;
      out.globals = changedText('globals');
      out.collection = changedText('collection');
      out.environment = changedText('environment');
      out.local = changedText('local');
      if (changed.method) out.method = request.method;
      if (changed.url) out.url = request.url;
      if (changed.headers) out.headers = request.headers;
      if (changed.body) out.body = request.body.raw;
      if (state.skip === true) out.skip = true;
      if (state.next) { out.next = state.next.value; out.nextSet = true; }
      return JSON.stringify(out);
    }
  };
})(this);
"""#
}
