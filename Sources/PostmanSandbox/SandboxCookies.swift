import Foundation
import ReqRunKit

/// `pm.cookies` and `pm.cookies.jar()`, as postman-sandbox gives them, on the run's cookie store
/// (`ScriptTransport`).
///
/// - `pm.cookies`: in test scripts, the cookies of the run's jar that go with the request's final URL (what
///   Postman shows for the request's domain), as a postman-collection `CookieList` (`get(name)` → value,
///   `one`, `has`, `all`, `toObject`, `each`, `count`, `idx`, `filter`, `find`, `map`); empty in pre-request
///   scripts, as in Postman.
/// - `pm.cookies.jar()`: `get(url, name, cb)`, `getAll(url, cb)`, `set(url, name, value, cb)` or
///   `set(url, {name, value, domain, path, secure, httpOnly, expires}, cb)`, `unset(url, name, cb)`,
///   `clear(url, cb)`; each callback gets `(err, result)` once the script's synchronous part is done (the
///   jar's calls are asynchronous in Postman too), or a promise settles without a callback. Only URLs whose
///   host is the request's own (the host it is sent to) are allowed: Postman asks the user to allowlist
///   domains for scripts (Newman allows every domain); reqrun's allowlist is that one host, so a collection's
///   script cannot read the cookies a `--cookie-jar` file holds for other sites. Another URL gets
///   postman-runtime's error, `CookieStore: programmatic access to "HOST" is denied`.
enum SandboxCookies {
    static let source = #"""
(function (global) {
  'use strict';
  var reqrun = global.__reqrun, cookieList = reqrun.internals.cookieList, jarCookies = [];

  function list(cookies) {
    var base = cookieList(cookies);
    base.idx = function (i) { return cookies[i]; };
    base.filter = function (fn) { return cookies.filter(fn); };
    base.find = function (fn) { return cookies.find(fn); };
    base.map = function (fn) { return cookies.map(fn); };
    base.toJSON = function () { return cookies.slice(); };
    return base;
  }
  function cookieText(value) { return value === undefined || value === null ? '' : String(value); }
  var jar = {
    get: function (url, name, callback) {
      return reqrun.enqueue({ jar: { op: 'get', url: reqrun.urlText(url), name: cookieText(name) } }, callback);
    },
    getAll: function (url, options, callback) {
      if (typeof options === 'function') callback = options;
      return reqrun.enqueue({ jar: { op: 'getAll', url: reqrun.urlText(url) } }, callback);
    },
    set: function (url, name, value, callback) {
      var cookie;
      if (name && typeof name === 'object') { cookie = name; callback = value; }
      else { cookie = { name: name, value: value }; }
      if (typeof value === 'function' && !callback) callback = value;
      var c = { name: cookieText(cookie.name || cookie.key), value: cookieText(cookie.value), path: cookie.path ? String(cookie.path) : '/',
                secure: !!cookie.secure, httpOnly: !!cookie.httpOnly };
      if (cookie.domain) c.domain = String(cookie.domain).replace(/^\./, '');
      if (cookie.expires) c.expires = Math.floor(new Date(cookie.expires).getTime() / 1000);
      return reqrun.enqueue({ jar: { op: 'set', url: reqrun.urlText(url), cookie: c } }, callback);
    },
    unset: function (url, name, callback) {
      return reqrun.enqueue({ jar: { op: 'unset', url: reqrun.urlText(url), name: cookieText(name) } }, callback);
    },
    clear: function (url, callback) {
      return reqrun.enqueue({ jar: { op: 'clear', url: reqrun.urlText(url) } }, callback);
    }
  };

  // pm.cookies, built when a script first reads it.
  var cookies = reqrun.lazyDescriptor('cookies', function () {
    var result = list(jarCookies);
    result.jar = function () { return jar; };
    return result;
  });
  var begin = reqrun.begin;
  reqrun.begin = function (json) {
    begin(json);
    jarCookies = [];
  };
  reqrun.pmProperty('cookies', cookies);
  // `__reqrun.run`, for test scripts that name cookies: the jar's cookies for the request's URL.
  reqrun.setCookies = function (json) {
    JSON.parse(json).forEach(function (c) { jarCookies.push(c); });
  };
})(this);
"""#

    /// The JSON `__reqrun.setCookies` reads: `cookies` as postman-collection's Cookie objects.
    static func json(_ cookies: [JarCookie]) -> String {
        "[" + cookies.map(object).joined(separator: ",") + "]"
    }

    private static func object(_ cookie: JarCookie) -> String {
        var json = "{\"name\":"
        JSONNode.appendQuoted(cookie.name, to: &json)
        json += ",\"value\":"
        JSONNode.appendQuoted(cookie.value, to: &json)
        json += ",\"domain\":"
        JSONNode.appendQuoted(cookie.domain ?? "", to: &json)
        json += ",\"path\":"
        JSONNode.appendQuoted(cookie.path, to: &json)
        json += ",\"secure\":\(cookie.secure),\"httpOnly\":\(cookie.httpOnly),\"session\":\(cookie.expires == nil)"
        if let expires = cookie.expires {
            json += ",\"expires\":"
            JSONNode.appendQuoted(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(expires))), to: &json)
        }
        return json + "}"
    }

    /// The answer to one queued jar call (`{"result": …}` or `{"error": …}`).
    static func answer(_ operation: JSONNode, transport: (any ScriptTransport)?) -> String {
        func field(_ name: String) -> JSONNode? {
            guard case .object(let members) = operation.value else { return nil }
            return members.last { $0.key == name }?.value
        }
        func text(_ node: JSONNode?) -> String? {
            guard let node else { return nil }
            if case .string(let value) = node.value { return value }
            return nil
        }
        guard let transport else { return PostmanSandbox.errorAnswer("CookieStore: no store found", curlCode: nil) }
        let url = text(field("url")) ?? ""
        if let refusal = transport.cookieAccessRefusal(for: url) { return PostmanSandbox.errorAnswer(refusal, curlCode: nil) }
        switch text(field("op")) {
        case "get":
            let name = text(field("name")) ?? ""
            guard let cookie = transport.cookies(for: url).last(where: { $0.name == name }) else { return "{\"result\":null}" }
            var json = "{\"result\":"
            JSONNode.appendQuoted(cookie.value, to: &json)
            return json + "}"
        case "getAll":
            return "{\"result\":" + json(transport.cookies(for: url)) + "}"
        case "set":
            guard let cookie = field("cookie"), case .object(let members) = cookie.value else {
                return PostmanSandbox.errorAnswer("CookieStore: no cookie to set", curlCode: nil)
            }
            func member(_ name: String) -> JSONNode.Value? { members.last { $0.key == name }?.value.value }
            var jarCookie = JarCookie(name: "", value: "")
            if case .string(let name)? = member("name") { jarCookie.name = name }
            if case .string(let value)? = member("value") { jarCookie.value = value }
            if case .string(let domain)? = member("domain") { jarCookie.domain = domain }
            if case .string(let path)? = member("path") { jarCookie.path = path }
            if case .bool(let secure)? = member("secure") { jarCookie.secure = secure }
            if case .bool(let httpOnly)? = member("httpOnly") { jarCookie.httpOnly = httpOnly }
            if case .number(let expires)? = member("expires") { jarCookie.expires = Int(expires) }
            if let refusal = transport.setCookie(jarCookie, for: url) { return PostmanSandbox.errorAnswer(refusal, curlCode: nil) }
            return "{\"result\":" + object(jarCookie) + "}"
        case "unset":
            transport.removeCookies(named: text(field("name")) ?? "", for: url)
            return "{\"result\":null}"
        case "clear":
            transport.removeCookies(named: nil, for: url)
            return "{\"result\":null}"
        default:
            return PostmanSandbox.errorAnswer("CookieStore: unknown call", curlCode: nil)
        }
    }
}
