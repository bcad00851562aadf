import ReqRunKit

/// `pm.request.auth` with postman-collection's `RequestAuth` (v4) on a `VariableList` of each type's
/// parameters, and `pm.request.authorizeUsing(type[, options])` (postman-collection's `Request`; also with a
/// definition, `authorizeUsing({type: 'bearer', bearer: […]})`, whose type's parameters are the options).
///
/// What a script reads is the auth that applies to the request (its own, else its folder's, else the
/// collection's: `RequestReference.effectiveAuth`), handed over by the runner as `Request.auth`, as
/// templates (`{{token}}`), like the URL. Postman differs: postman-runtime gives the script the request's
/// own auth only (undefined when inherited: postman-app-support#4396, #12942) and sends none of its changes
/// (item.command.js copies back `url`, `method`, `headers`, `body` only: postman-app-support#9688, #10368).
///
/// - `RequestAuth`: `type`; one `VariableList` per type it holds, under the type's name (`auth.bearer`);
///   `parameters()` (the selected type's list), `update(options[, type])` (options: a list of `{key, value}`
///   or an object; the type's list, made when missing; `type` is not changed), `use(type[, options])` (selects
///   the type; options replace its list), `clear(type)` (empties the list, drops it unless selected),
///   `toJSON()`, and `current()`, which throws as postman-collection v4 does.
/// - `VariableList`: postman-collection's `PropertyList` of `Variable` (`key`, `value`, `type`, `get()`,
///   `set(v)`): `get`, `one`, `has(key[, value])`, `all`, `each`, `map`, `filter`, `find`, `count`, `idx`,
///   `indexOf`, `toObject`, `toJSON`, `add`, `append`, `prepend`, `upsert`, `remove(key | predicate | item)`,
///   `clear`, `populate`, `repopulate`, `assimilate(source[, prune])`, `syncFromObject(object[, track,
///   prune])`, `syncToObject(object)`.
/// - Assigning `pm.request.auth = {type, TYPE: […]}` (or a `RequestAuth`) replaces the auth; `null`,
///   `undefined`, `delete pm.request.auth` and `authorizeUsing(null)` remove it: the request is sent
///   without authentication (nothing is inherited again, since what the script saw was already the auth that
///   applies).
///
/// In a pre-request script a change is handed back when the selected type or its parameters differ at the
/// end (`"auth"` in `__reqrun.end`'s JSON: `{type, TYPE: [{key, value}]}` or null for removed), and the
/// sandbox reads it with `PostmanScriptAuth.decode`; an auth object that throws when it is read then (a
/// getter, a Proxy, a `toJSON`, a cycle) fails the request with the exception (`"authError"`). In a test script the same API reads the auth that was
/// sent; changing it changes nothing.
enum SandboxRequestAuth {
    /// The second argument of `__reqrun.begin`: `{"type": TYPE, TYPE: [{"key", "value", "type": "string"}]}`.
    static func json(_ auth: Auth) -> String {
        let (type, parameters) = PostmanScriptAuth.parameters(of: auth)
        var bytes = Array("{\"type\":".utf8)
        JSONNode.appendQuoted(type, to: &bytes)
        bytes.append(UInt8(ascii: ","))
        JSONNode.appendQuoted(type, to: &bytes)
        bytes.append(contentsOf: ":[".utf8)
        for (index, parameter) in parameters.enumerated() {
            bytes.append(contentsOf: (index > 0 ? ",{\"key\":" : "{\"key\":").utf8)
            JSONNode.appendQuoted(parameter.key, to: &bytes)
            bytes.append(contentsOf: ",\"value\":".utf8)
            JSONNode.appendQuoted(parameter.value, to: &bytes)
            bytes.append(contentsOf: ",\"type\":\"string\"}".utf8)
        }
        bytes.append(contentsOf: "]}".utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    static let source = #"""
(function (global) {
  'use strict';
  var reqrun = global.__reqrun, begin = reqrun.begin, end = reqrun.end, tracked = null;
  function own(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }
  function isType(type) { return typeof type === 'string' && type !== 'type'; }
  function text(value) {
    if (value === undefined || value === null) return '';
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }

  // postman-collection's Variable, as the members of an auth type's list.
  function Variable(item) {
    item = item && typeof item === 'object' ? item : {};
    this.key = item.key === undefined || item.key === null ? item.key : String(item.key);
    this.value = item.value;
    this.type = item.type || 'any';
    if (item.disabled) this.disabled = true;
  }
  Variable.prototype = {
    get: function () { return this.value; },
    set: function (value) { this.value = value; },
    valueOf: function () { return this.value; },
    toString: function () { return text(this.value); },
    update: function (item) {
      if (!item || typeof item !== 'object') return;
      if (own(item, 'value')) this.value = item.value;
      if (item.type) this.type = item.type;
      if (own(item, 'disabled')) this.disabled = !!item.disabled;
    },
    toJSON: function () {
      var json = { key: this.key, value: this.value, type: this.type };
      if (this.disabled) json.disabled = true;
      return json;
    }
  };
  function variable(item) { return item instanceof Variable ? item : new Variable(item); }

  // postman-collection's VariableList (a PropertyList of Variable; keys are case-sensitive).
  function VariableList(items) {
    Object.defineProperty(this, 'members', { value: [], writable: true });
    if (items) this.populate(items);
  }
  VariableList.isVariableList = function (value) { return value instanceof VariableList; };
  VariableList.prototype = {
    one: function (key) {
      for (var i = this.members.length - 1; i >= 0; i--) if (this.members[i].key === key) return this.members[i];
      return undefined;
    },
    get: function (key) { var member = this.one(key); return member ? member.valueOf() : undefined; },
    has: function (item, value) {
      var key = item && typeof item === 'object' ? item.key : item, member = this.one(key);
      return !!member && (arguments.length < 2 || member.value === value);
    },
    all: function () { return this.members.slice(); },
    each: function (fn, context) { this.members.slice().forEach(fn, context); },
    map: function (fn, context) { return this.members.map(fn, context); },
    filter: function (fn, context) { return this.members.filter(fn, context); },
    find: function (fn, context) { return this.members.find(fn, context); },
    reduce: function (fn, start) { return this.members.reduce(fn, start); },
    count: function () { return this.members.length; },
    idx: function (index) { return this.members[index]; },
    indexOf: function (item) {
      return this.members.indexOf(typeof item === 'string' ? this.one(item) : item);
    },
    add: function (item) { if (item !== undefined && item !== null) this.members.push(variable(item)); },
    append: function (item) { this.add(item); },
    prepend: function (item) { if (item !== undefined && item !== null) this.members.unshift(variable(item)); },
    upsert: function (item) {
      if (!item || typeof item !== 'object') return null;
      var existing = this.one(item.key);
      if (existing) { existing.update(item); return false; }
      this.add(item);
      return true;
    },
    remove: function (predicate, context) {
      var match = typeof predicate === 'function' ? function (m) { return predicate.call(context, m); } :
        predicate instanceof Variable ? function (m) { return m === predicate; } :
        function (m) { return m.key === (predicate && typeof predicate === 'object' ? predicate.key : predicate); };
      this.members = this.members.filter(function (m) { return !match(m); });
    },
    clear: function () { this.members = []; },
    populate: function (items) {
      var list = this;
      if (items instanceof VariableList) items = items.all();
      if (Array.isArray(items)) items.forEach(function (item) { list.add(item); });
      else if (items && typeof items === 'object') Object.keys(items).forEach(function (key) { list.add({ key: key, value: items[key] }); });
    },
    repopulate: function (items) { this.clear(); this.populate(items); },
    assimilate: function (source, prune) {
      var list = this, items = source instanceof VariableList ? source.all() : Array.isArray(source) ? source : [];
      items.forEach(function (item) { if (item && typeof item === 'object') list.upsert(item instanceof Variable ? item.toJSON() : item); });
      if (prune) {
        var keys = items.map(function (item) { return item && item.key; });
        this.members = this.members.filter(function (m) { return keys.indexOf(m.key) >= 0; });
      }
    },
    syncFromObject: function (object, track, prune) {
      if (!object || typeof object !== 'object') return;
      var list = this, keys = Object.keys(object);
      keys.forEach(function (key) { list.upsert({ key: key, value: object[key] }); });
      if (prune) this.members = this.members.filter(function (m) { return keys.indexOf(m.key) >= 0; });
    },
    syncToObject: function (object) {
      this.members.forEach(function (m) { if (!m.disabled) object[m.key] = m.value; });
      return object;
    },
    toObject: function (excludeDisabled) {
      var result = {};
      this.members.forEach(function (m) { if (!(excludeDisabled && m.disabled) && m.key !== undefined) result[m.key] = m.value; });
      return result;
    },
    toJSON: function () { return this.members.map(function (m) { return m.toJSON(); }); }
  };

  // postman-collection's RequestAuth (v4).
  function RequestAuth(options) {
    var auth = this;
    options = options && typeof options === 'object' ? (options instanceof RequestAuth ? options.toJSON() : options) : {};
    if (own(options, 'type')) this.use(options.type);
    Object.keys(options).forEach(function (key) { if (key !== 'type') auth.update(options[key], key); });
  }
  RequestAuth.isValidType = isType;
  RequestAuth.prototype = {
    update: function (options, type) {
      if (!options || typeof options !== 'object') return;
      if (!isType(type)) type = this.type;
      if (!isType(type)) return;
      if (!(this[type] instanceof VariableList)) this[type] = new VariableList();
      if (Array.isArray(options) || options instanceof VariableList) this[type].assimilate(options);
      else this[type].syncFromObject(options, false, false);
    },
    use: function (type, options) {
      if (!isType(type)) return;
      this.type = type;
      if (!(this[type] instanceof VariableList) || options) this[type] = new VariableList(options);
    },
    current: function () {
      throw new Error('`Request#current` has been discontinued, use `Request#parameters` instead.');
    },
    parameters: function () { return this[this.type]; },
    clear: function (type) {
      if (!(isType(type) && this[type] instanceof VariableList)) return;
      this[type].clear();
      if (type !== this.type) delete this[type];
    },
    toJSON: function () {
      var auth = this, json = { type: this.type };
      Object.keys(this).forEach(function (key) { if (key !== 'type' && auth[key] instanceof VariableList) json[key] = auth[key].toJSON(); });
      return json;
    }
  };

  // The selected type and its enabled parameters, as end() hands them back ({} for no type: inherit).
  function definition(auth) {
    if (auth === undefined || auth === null) return null;
    var json = typeof auth.toJSON === 'function' ? auth.toJSON() : auth;
    if (!json || typeof json !== 'object') return null;
    if (!isType(json.type)) return {};
    var list = json[json.type], pairs = [];
    if (list instanceof VariableList) list = list.toJSON();
    if (Array.isArray(list)) {
      list.forEach(function (item) {
        if (item && typeof item === 'object' && !item.disabled && item.key !== undefined && item.key !== null) {
          pairs.push({ key: String(item.key), value: text(item.value) });
        }
      });
    } else if (list && typeof list === 'object') {
      Object.keys(list).forEach(function (key) { pairs.push({ key: key, value: text(list[key]) }); });
    }
    var result = { type: json.type };
    result[json.type] = pairs;
    return result;
  }

  // The request's auth, kept at `begin`; `auth` and `authorizeUsing` are added when a script first reads
  // pm.request (the prelude's `onRequest`), so a request whose scripts never read it leaves it untouched.
  reqrun.begin = function (json, authJSON) {
    begin(json);
    tracked = { event: global.pm.info.eventName, initial: authJSON || null };
  };
  reqrun.onRequest(function (request) {
    var state = tracked || { event: '', initial: null }, authJSON = state.initial, built, touched = false;
    state.request = request;
    function get() {
      touched = true;
      if (built === undefined) built = authJSON ? new RequestAuth(JSON.parse(authJSON)) : null;
      return built === null ? undefined : built;
    }
    function set(value) {
      touched = true;
      built = value && typeof value === 'object' ? (value instanceof RequestAuth ? value : new RequestAuth(value)) : null;
    }
    Object.defineProperty(request, 'auth', { configurable: true, enumerable: true, get: get, set: set });
    function install() { Object.defineProperty(request, 'auth', { configurable: true, enumerable: true, get: get, set: set }); }
    install();
    request.authorizeUsing = function (type, options) {
      if (type && typeof type === 'object' && (options === undefined || options === null)) {
        // A RequestAuth definition: its type's parameters (`{type: 'bearer', bearer: […]}`).
        if (own(type, String(type.type))) options = type[type.type];
        else { options = Object.assign({}, type); delete options.type; }
        type = type.type;
      }
      var descriptor = Object.getOwnPropertyDescriptor(request, 'auth');
      if (!descriptor || descriptor.get !== get) {
        var value = descriptor ? descriptor.value : undefined;
        install();
        set(value);
      }
      if (type === null) { set(null); return; }
      if (!isType(type)) return;
      var auth = request.auth;
      if (!auth) { set({}); auth = request.auth; } else auth.clear(type);
      auth.use(type, options);
    };
    state.get = get;
    state.touched = function () { return touched; };
    state.current = function () { return built === undefined ? get() : built === null ? undefined : built; };
  });

  reqrun.end = function () {
    var result = end(), state = tracked;
    tracked = null;
    if (!state || state.event !== 'prerequest' || !state.request) return result;
    var descriptor = Object.getOwnPropertyDescriptor(state.request, 'auth'), auth;
    if (descriptor && descriptor.get === state.get) {
      if (!state.touched()) return result;
      auth = state.current();
    } else {
      auth = descriptor ? descriptor.value : undefined;
    }
    var now;
    // A script's own object may throw when read (a getter, a Proxy trap, a toJSON, a cycle): its message is
    // the request's error, and what the scripts did is still reported.
    try { now = JSON.stringify(definition(auth)); } catch (error) {
      var reason;
      try { reason = error instanceof Error ? error.name + ': ' + error.message : String(error); } catch (_) { reason = 'an exception'; }
      return result.slice(0, -1) + ',"authError":' + JSON.stringify(reason) + '}';
    }
    if (now === JSON.stringify(definition(state.initial ? JSON.parse(state.initial) : null))) return result;
    return result.slice(0, -1) + ',"auth":' + now + '}';
  };
})(this);
"""#
}
