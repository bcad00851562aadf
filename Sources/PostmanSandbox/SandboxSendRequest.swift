import Foundation
import ReqRunKit

/// `pm.sendRequest(request, callback)` and its promise form (`await pm.sendRequest(request)`), as
/// postman-sandbox gives them; the requests go through the run's executor (`ScriptTransport`).
///
/// The JavaScript side (`source`, evaluated once after the prelude) queues each call with its callback;
/// after each script returns, `settle` takes the queue (`__reqrun.after`), sends the requests one after the other, and answers
/// each (the callback runs, or the promise settles, and the JavaScript jobs that follow run), until nothing
/// waits: a script's event ends when its pending requests are answered, as in postman-runtime. Waiting counts
/// toward the script's time limit (`--script-timeout`): each transfer is bounded by what is left of it.
///
/// The request: a URL string, or an object with `url` (a string, or anything with `toString`, such as
/// `pm.request.url`), `method` (default GET), `header` (a list of `{key, value, disabled}`, an object of
/// name → value, `Name: value` lines, or a header list such as `pm.request.headers`), `body` (`mode` `raw`,
/// `urlencoded`, `formdata`, `graphql`; `file` bodies and file parts are left out with the warning
/// postman-runtime gives: "uploading files from scripts is not allowed") and `auth` (Postman's auth object).
/// The callback gets `(err, response)`: `err` an `Error` whose `code` is Node's name for the failure where
/// there is one (`ECONNREFUSED`, `ETIMEDOUT`, `ENOTFOUND`), `response` the same API as `pm.response`.
enum SandboxSendRequest {
    static let source = #"""
(function (global) {
  'use strict';
  var reqrun = global.__reqrun, makeResponse = reqrun.internals.makeResponse;
  var queue = [], callbacks = {}, nextId = 0, rejection = null;

  function text(value) {
    if (value === undefined || value === null) return '';
    if (typeof value === 'string') return value;
    if (typeof value === 'object') { try { return JSON.stringify(value); } catch (e) { return String(value); } }
    return String(value);
  }
  // A list of {key, value} from the shapes postman-collection accepts for headers and form fields.
  function pairs(list) {
    if (!list) return [];
    // A header list (pm.request.headers) gives its members with all(); an array has Sugar's `all` (a test).
    if (!Array.isArray(list) && typeof list.all === 'function') list = list.all();
    if (typeof list === 'string') {
      return list.split(/\r?\n/).map(function (line) {
        var colon = line.indexOf(':');
        return colon > 0 ? { key: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() } : null;
      }).filter(Boolean);
    }
    if (Array.isArray(list)) {
      return list.filter(function (item) { return item && !item.disabled && item.key !== undefined; })
        .map(function (item) { return { key: String(item.key), value: text(item.value), type: item.type }; });
    }
    if (typeof list === 'object') {
      return Object.keys(list).map(function (key) { return { key: key, value: text(list[key]) }; });
    }
    return [];
  }
  function urlText(url) {
    if (typeof url === 'string') return url;
    if (url && typeof url === 'object') {
      if (typeof url.raw === 'string' && url.raw) return url.raw;
      if (url.toString !== Object.prototype.toString) return String(url);
      var host = Array.isArray(url.host) ? url.host.join('.') : (url.host || '');
      var path = Array.isArray(url.path) ? url.path.join('/') : (url.path || '');
      var query = pairs(url.query).map(function (p) { return p.key + '=' + p.value; }).join('&');
      return (url.protocol ? url.protocol.replace(/:$/, '') + '://' : '') + host + (url.port ? ':' + url.port : '') +
        (path ? '/' + String(path).replace(/^\//, '') : '') + (query ? '?' + query : '');
    }
    return text(url);
  }
  function normalize(request) {
    if (typeof request === 'string') return { url: request, method: 'GET', header: [], body: null, auth: null };
    if (!request || typeof request !== 'object') throw new TypeError('pm.sendRequest: expected a URL or a request object');
    var body = request.body, normal = null, files = false;
    if (body && typeof body === 'object' && body.mode) {
      switch (body.mode) {
        case 'raw':
          normal = { mode: 'raw', raw: text(body.raw),
                     language: body.options && body.options.raw ? body.options.raw.language : undefined };
          break;
        case 'urlencoded': normal = { mode: 'urlencoded', urlencoded: pairs(body.urlencoded) }; break;
        case 'formdata':
          var parts = pairs(body.formdata);
          files = parts.some(function (p) { return p.type === 'file'; });
          normal = { mode: 'formdata', formdata: parts.filter(function (p) { return p.type !== 'file'; }) };
          break;
        case 'graphql':
          var graphql = body.graphql || {};
          normal = { mode: 'graphql', graphql: { query: text(graphql.query),
                     variables: graphql.variables === undefined || graphql.variables === '' ? null : text(graphql.variables) } };
          break;
        case 'file': files = true; break;
      }
    } else if (typeof body === 'string' && body) {
      normal = { mode: 'raw', raw: body };
    }
    // postman-runtime strips files from script requests (sanitizeFiles) with this warning.
    if (files) global.console.warn('uploading files from scripts is not allowed');
    return { url: urlText(request.url), method: request.method ? String(request.method) : 'GET',
             header: pairs(request.header || request.headers), body: normal,
             auth: request.auth && typeof request.auth === 'object' ? request.auth : null };
  }
  // Queues `item` for Swift; `callback(err, result)` gets the answer, or a promise settles without one.
  function enqueue(item, callback) {
    var id = ++nextId;
    item.id = id;
    queue.push(item);
    if (typeof callback === 'function') {
      callbacks[id] = callback;
      return undefined;
    }
    return new Promise(function (resolve, reject) {
      callbacks[id] = function (err, response) { if (err) reject(err); else resolve(response); };
    });
  }
  function sendRequest(request, callback) { return enqueue({ request: normalize(request) }, callback); }
  reqrun.enqueue = enqueue;
  reqrun.urlText = urlText;
  var codes = { 6: 'ENOTFOUND', 7: 'ECONNREFUSED', 28: 'ETIMEDOUT', 52: 'ECONNRESET', 56: 'ECONNRESET' };

  var begin = reqrun.begin;
  reqrun.begin = function (json) {
    begin(json);
    queue = []; callbacks = {}; rejection = null;
  };
  reqrun.pmValue('sendRequest', sendRequest);
  // Swift, after each script: the queued requests as JSON (an array; '!' when they cannot be written), taken
  // out of the queue; when none waits, a top-level `await` script's rejection is thrown, else '~MS' while a
  // timer is pending, else the script's `leave` and then the `enter` of the script at `next` ('' or 'skip'),
  // or `end`'s JSON when none is next.
  reqrun.after = function (next) {
    if (queue.length) {
      var taken = queue;
      queue = [];
      try { return JSON.stringify(taken); } catch (e) { return '!'; }
    }
    if (rejection) { var e = rejection.error; rejection = null; throw e; }
    // A pending timer (SandboxTimers): '~MS' until it is due; Swift waits, fires it and comes back.
    var wait = reqrun.waiting();
    if (wait) return wait;
    // A legacy `tests` object that throws as it is read costs its own assertions, not the script (as before).
    try { reqrun.leave(); } catch (e) {}
    return next === undefined ? reqrun.end() : reqrun.enter(next);
  };
  // Swift, before a request's scripts: `begin` (with what the later sources added to it), then the first
  // script's `enter`; `authJSON` is the request's auth for `pm.request.auth` (`SandboxRequestAuth`), if any.
  reqrun.start = function (json, place, authJSON) {
    reqrun.begin(json, authJSON);
    return reqrun.enter(place);
  };
  // Swift, for a request's first script: the response's body and header fields (`stage`), `start`, the jar's
  // cookies when the script names them (`SandboxCookies`), then the script itself (undefined: it did not
  // compile), in one call into JavaScript.
  // '!start' when the sandbox's own start failed; else `enter`'s step ('' or 'skip'). A script's exception is
  // the call's, as it was its own call's.
  reqrun.run = function (script, json, place, authJSON, cookiesJSON, body, headersJSON) {
    var step;
    try {
      reqrun.stage(body, headersJSON);
      step = reqrun.start(json, place, authJSON);
      if (cookiesJSON) reqrun.setCookies(cookiesJSON);
    } catch (e) {
      return '!start';
    }
    if (step === '' && typeof script === 'function') script.call(global);
    return step;
  };
  // Swift: the answer to request `id`, `{"error", "curlCode"}` or the response as `__reqrun.begin` gets it.
  reqrun.answer = function (id, json) {
    var callback = callbacks[id], answer = JSON.parse(json);
    delete callbacks[id];
    if (!callback) return;
    if (answer.error !== undefined) {
      var err = new Error(answer.error);
      if (codes[answer.curlCode]) err.code = codes[answer.curlCode];
      callback(err);
    } else {
      callback(null, answer.result !== undefined ? answer.result : makeResponse(answer));
    }
  };
  // A script that awaits at its top level runs as an async function; its rejection is the script's error.
  reqrun.rejected = function (e) { if (!rejection) rejection = { error: e }; };
})(this);
"""#
}

extension PostmanSandbox {
    /// Sends what the script that just ran queued with `pm.sendRequest`, answers each, fires its timers when
    /// they are due (`waitForTimer`, `SandboxTimers`), and again until nothing waits; then, in the same call of
    /// `__reqrun.after`, a top-level `await` script's rejection, if any, is its failure, else the script's
    /// `leave` and the next step run.
    /// - Parameters:
    ///   - next: the place of the request's next script (its `enter`); nil after the last (then `end`).
    ///   - deadline: when the script's time limit ends (nil: none).
    ///   - late: set to the first exception a timer's callback threw (the event goes on without it).
    /// - Returns: what `after` gave once nothing waits: `enter`'s "" or "skip", or `end`'s JSON.
    func settle(_ script: Script, next: String?, transport: (any ScriptTransport)?,
                deadline: ContinuousClock.Instant?, late: inout JavaScriptEngine.Failure?) -> Result<String, JavaScriptEngine.Failure> {
        while true {
            let text: String
            switch after.call(engine, next.map { [$0] } ?? []) {
            case .failure(let failure): return .failure(failure)
            case .success(let taken): text = taken
            }
            if text == "!" { return .failure(JavaScriptEngine.Failure(message: "pm.sendRequest: the sandbox lost its queue", timedOut: false)) }
            if text.utf8.first == UInt8(ascii: "~") {
                if let failure = waitForTimer(text.dropFirst(), deadline: deadline, late: &late) { return .failure(failure) }
                continue
            }
            guard text.utf8.first == UInt8(ascii: "[") else { return .success(text) }
            // A queue that does not read back is dropped (the next call finds it empty).
            guard let root = SandboxOutput.parse(text), case .array(let items) = root.value else { continue }
            for item in items {
                guard case .object(let members) = item.value, let id = members.first(where: { $0.key == "id" })?.value.compactText else { continue }
                if let operation = members.first(where: { $0.key == "jar" })?.value {
                    if case .failure(let failure) = self.answer.call(engine, [id, SandboxCookies.answer(operation, transport: transport)]) {
                        return .failure(failure)
                    }
                    continue
                }
                guard let request = members.first(where: { $0.key == "request" })?.value else { continue }
                var remaining: Int?
                if let deadline {
                    let left = deadline - ContinuousClock.now
                    if left <= .zero { return .failure(JavaScriptEngine.Failure(message: "", timedOut: true)) }
                    // Rounded up, and 1 ms more: libcurl's timeout then ends at or after the deadline, so a transfer it
                    // cuts is the time limit below, never a timeout error the callback sees (a loaded machine showed that).
                    remaining = Int((left / .milliseconds(1)).rounded(.up)) + 1
                }
                let answer: String
                switch PostmanScriptRequest.decode(request) {
                case .failure(let refusal): answer = Self.errorAnswer(refusal.reason, curlCode: nil)
                case .success(let decoded):
                    guard let transport else {
                        answer = Self.errorAnswer("pm.sendRequest sends nothing here (--dry-run sends no request)", curlCode: nil)
                        break
                    }
                    let response = transport.send(decoded, timeLimitMilliseconds: remaining, place: script.place)
                    answer = Self.answer(response)
                    // Cut at the time limit: the script is stopped, as postman-sandbox stops one whose event loop
                    // outlives its timeout, rather than its callback told of a timeout. libcurl's own clock may end
                    // the transfer (timed out, 28) a little before the deadline: that is the limit too.
                    if let deadline {
                        var cut = ContinuousClock.now >= deadline
                        if case .failure(_, 28?) = response, deadline - ContinuousClock.now < .milliseconds(50) { cut = true }
                        if cut { return .failure(JavaScriptEngine.Failure(message: "", timedOut: true)) }
                    }
                }
                if case .failure(let failure) = self.answer.call(engine, [id, answer]) { return .failure(failure) }
            }
        }
    }

    static func errorAnswer(_ message: String, curlCode: Int?) -> String {
        var json = "{\"error\":"
        JSONNode.appendQuoted(message, to: &json)
        return json + ",\"curlCode\":\(curlCode.map(String.init) ?? "null")}"
    }

    /// The JSON `__reqrun.answer` reads: the response in `makeResponse`'s shape, or the error.
    static func answer(_ response: ScriptResponse) -> String {
        switch response {
        case .failure(let message, let curlCode):
            return errorAnswer(message, curlCode: curlCode)
        case .response(let status, let reason, let headers, let body, let bodySize, let total):
            var json = "{\"code\":\(status),\"reason\":"
            JSONNode.appendQuoted(reason.isEmpty ? HTTPReason.phrase(status) : reason, to: &json)
            json += ",\"headers\":["
            for (index, header) in headers.enumerated() {
                json += index > 0 ? ",{\"key\":" : "{\"key\":"
                JSONNode.appendQuoted(header.name, to: &json)
                json += ",\"value\":"
                JSONNode.appendQuoted(header.value, to: &json)
                json += "}"
            }
            json += "],\"body\":"
            JSONNode.appendQuoted(body, to: &json)
            return json + ",\"responseTime\":\(total / 1000),\"responseSize\":\(bodySize)}"
        }
    }
}
