/// The legacy sandbox's surface that the prelude does not build itself, evaluated once per run before it:
/// Sugar.js-style methods on the built-in prototypes, and the legacy `request` object.
///
/// Postman's sandbox carried Sugar.js 1.x, documented as "Extends native JS objects with useful methods"
/// (postman-docs, "Postman Sandbox"; deprecated in 2017) and exercised by postman-runtime's `sugar-js` and
/// `sandbox-libraries` tests; collections still call `responseBody.has("…")`. These are our own
/// implementations of the methods those tests and real collections use, with Sugar 1.4's meanings: on
/// `String.prototype` `has camelize underscore dasherize spacify capitalize shift words lines chars first
/// last from to isBlank compact reverse toNumber escapeURL unescapeURL escapeHTML unescapeHTML`; on
/// `Array.prototype` `first last from to any none all count sum average min max unique compact flatten
/// isEmpty clone findAll exclude remove groupBy sortBy`; on `Number.prototype` `hex isEven isOdd
/// isMultipleOf ordinalize format round ceil floor abs pad times upto downto chr`; on `Date.prototype`
/// `addMilliseconds addSeconds addMinutes addHours addDays addWeeks addMonths addYears isBefore isAfter isPast
/// isFuture` (Microsoft Graph's collection calls `new Date().addDays(7)`); `Function.prototype.once`;
/// and `Object.extended has isString isNumber isBoolean isArray isObject isFunction isRegExp isDate merge
/// clone isEmpty equal size each map select reject`. A method JavaScript itself has (`startsWith`,
/// `repeat`, `includes`, `at`, `Object.values`…) keeps its standard meaning. Each is non-enumerable, so
/// `for…in` and libraries do not see them. Sugar's date parsing and formatting, ranges and inflections are
/// not there.
///
/// It leaves `__reqrunLegacy.request(input)` for the prelude: postman-sandbox's legacy `request` (`id`,
/// `name`, `method`, `url`, `headers` with lower-case names and an array for a repeated one, `data`: the raw
/// body's text, or the form's fields as an object, an array for a repeated name; `{}` otherwise).
enum SandboxLegacy {
    static let source = #"""
(function (global) {
  'use strict';
  function extend(target, methods) {
    Object.keys(methods).forEach(function (name) {
      if (name in target) return;
      Object.defineProperty(target, name, { value: methods[name], writable: true, configurable: true, enumerable: false });
    });
  }
  function equal(a, b) {
    if (a === b) return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a !== a && b !== b;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    var ka = Object.keys(a), kb = Object.keys(b);
    return ka.length === kb.length && ka.every(function (k) { return Object.prototype.hasOwnProperty.call(b, k) && equal(a[k], b[k]); });
  }
  // Sugar's matching: a function is called, a RegExp tests strings, an object or array is compared deeply.
  function matcher(f) {
    if (typeof f === 'function') return f;
    if (f instanceof RegExp) return function (v) { return typeof v === 'string' && f.test(v); };
    if (f !== null && typeof f === 'object') return function (v) { return equal(v, f); };
    return function (v) { return v === f || (v !== v && f !== f); };
  }
  function mapper(map) {
    if (typeof map === 'function') return map;
    if (typeof map === 'string') return function (v) { return v == null ? undefined : v[map]; };
    return function (v) { return v; };
  }

  extend(String.prototype, {
    has: function (find) { return find instanceof RegExp ? find.test(this) : this.indexOf(String(find)) !== -1; },
    underscore: function () {
      return String(this).replace(/[-\s]+/g, '_').replace(/([a-z\d])([A-Z])/g, '$1_$2').replace(/_+/g, '_').toLowerCase();
    },
    camelize: function (first) {
      return this.underscore().split('_').filter(Boolean).map(function (w, i) {
        return i === 0 && first === false ? w : w.charAt(0).toUpperCase() + w.slice(1);
      }).join('');
    },
    dasherize: function () { return this.underscore().replace(/_/g, '-'); },
    spacify: function () { return this.underscore().replace(/_/g, ' '); },
    capitalize: function (all) {
      var lower = this.toLowerCase();
      return all ? lower.replace(/(^|[^\w'])(\w)/g, function (m, a, b) { return a + b.toUpperCase(); })
                 : lower.charAt(0).toUpperCase() + lower.slice(1);
    },
    shift: function (n) {
      var out = '';
      for (var i = 0; i < this.length; i++) out += String.fromCharCode(this.charCodeAt(i) + (n || 0));
      return out;
    },
    words: function (fn) { var list = this.trim().split(/\s+/).filter(Boolean); if (fn) list.forEach(fn); return list; },
    lines: function (fn) { var list = this.trim().split(/\r?\n/); if (fn) list.forEach(fn); return list; },
    chars: function (fn) { var list = this.split(''); if (fn) list.forEach(fn); return list; },
    first: function (n) { return this.slice(0, n === undefined ? 1 : n); },
    last: function (n) { n = n === undefined ? 1 : n; return n <= 0 ? '' : this.slice(-n); },
    from: function (i) { return this.slice(i || 0); },
    to: function (i) { return this.slice(0, i === undefined ? this.length : i); },
    isBlank: function () { return this.trim().length === 0; },
    compact: function () { return this.trim().replace(/\s+/g, ' '); },
    reverse: function () { return this.split('').reverse().join(''); },
    toNumber: function (base) { return base ? parseInt(this, base) : parseFloat(String(this).replace(/,/g, '')); },
    escapeURL: function (param) { return param ? encodeURIComponent(this) : encodeURI(this); },
    unescapeURL: function (param) { return param ? decodeURIComponent(this) : decodeURI(this); },
    escapeHTML: function () {
      return this.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\//g, '&#x2f;');
    },
    unescapeHTML: function () {
      return this.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&#x2f;/g, '/').replace(/&amp;/g, '&');
    }
  });

  extend(Array.prototype, {
    first: function (n) { return n === undefined ? this[0] : this.slice(0, Math.max(0, n)); },
    last: function (n) { return n === undefined ? this[this.length - 1] : (n <= 0 ? [] : this.slice(-n)); },
    from: function (i) { return this.slice(i || 0); },
    to: function (i) { return this.slice(0, i === undefined ? this.length : i); },
    any: function (f) { return this.some(matcher(f)); },
    none: function (f) { return !this.some(matcher(f)); },
    all: function (f) { return this.every(matcher(f)); },
    count: function (f) { return f === undefined ? this.length : this.filter(matcher(f)).length; },
    sum: function (map) { var m = mapper(map); return this.reduce(function (s, v) { return s + m(v); }, 0); },
    average: function (map) { return this.length ? this.sum(map) / this.length : 0; },
    min: function (map, all) { return extreme(this, map, all, function (a, b) { return a < b; }); },
    max: function (map, all) { return extreme(this, map, all, function (a, b) { return a > b; }); },
    unique: function (map) {
      var m = mapper(map), seen = [];
      return this.filter(function (v) {
        var key = m(v);
        if (seen.some(function (s) { return equal(s, key); })) return false;
        seen.push(key);
        return true;
      });
    },
    compact: function (all) {
      return this.filter(function (v) { return all ? !!v : v !== null && v !== undefined && v === v; });
    },
    flatten: function (limit) {
      var depth = limit === undefined ? Infinity : limit;
      return (function flat(list, level) {
        return list.reduce(function (out, v) { return out.concat(Array.isArray(v) && level < depth ? flat(v, level + 1) : [v]); }, []);
      })(this, 0);
    },
    isEmpty: function () { return this.compact().length === 0; },
    clone: function () { return this.slice(); },
    findAll: function (f) { return this.filter(matcher(f)); },
    exclude: function () {
      var tests = Array.prototype.map.call(arguments, matcher);
      return this.filter(function (v) { return !tests.some(function (t) { return t(v); }); });
    },
    remove: function () {
      var tests = Array.prototype.map.call(arguments, matcher);
      for (var i = this.length - 1; i >= 0; i--) if (tests.some(function (t) { return t(this[i]); }, this)) this.splice(i, 1);
      return this;
    },
    groupBy: function (map) {
      var m = mapper(map), groups = {};
      this.forEach(function (v) { var key = m(v); (groups[key] = groups[key] || []).push(v); });
      return groups;
    },
    sortBy: function (map, desc) {
      var m = mapper(map);
      return this.slice().sort(function (a, b) { var x = m(a), y = m(b), r = x < y ? -1 : x > y ? 1 : 0; return desc ? -r : r; });
    }
  });
  function extreme(list, map, all, better) {
    var m = mapper(map), best, found = [];
    list.forEach(function (v) {
      var key = m(v);
      if (found.length === 0 || better(key, best)) { best = key; found = [v]; }
      else if (key === best) found.push(v);
    });
    return all ? found : found[0];
  }

  function round(method) {
    return function (precision) {
      var factor = Math.pow(10, precision || 0);
      return Math[method](this * factor) / factor;
    };
  }
  extend(Number.prototype, {
    hex: function (pad) { return this.toString(16).padStart(pad || 1, '0'); },
    isEven: function () { return this % 2 === 0; },
    isOdd: function () { return Math.abs(this % 2) === 1; },
    isMultipleOf: function (n) { return this % n === 0; },
    ordinalize: function () {
      var n = Math.abs(Math.floor(this)), last = n % 100;
      var suffix = last >= 11 && last <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] || 'th';
      return this + suffix;
    },
    format: function (place, thousands, decimal) {
      var text = place === undefined ? String(Math.abs(this)) : Math.abs(this).toFixed(place);
      var parts = text.split('.'), sep = thousands === undefined ? ',' : thousands;
      var whole = parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, sep);
      return (this < 0 ? '-' : '') + whole + (parts[1] ? (decimal === undefined ? '.' : decimal) + parts[1] : '');
    },
    round: round('round'),
    ceil: round('ceil'),
    floor: round('floor'),
    abs: function () { return Math.abs(this); },
    pad: function (digits, sign, base) {
      var text = Math.abs(this).toString(base || 10).padStart(digits || 0, '0');
      return (this < 0 ? '-' : sign ? '+' : '') + text;
    },
    times: function (fn) { var out = []; for (var i = 0; i < this; i++) out.push(fn ? fn.call(this, i) : i); return out; },
    upto: function (n, fn, step) {
      var out = []; for (var i = Number(this); i <= n; i += step || 1) out.push(fn ? fn(i) : i); return out;
    },
    downto: function (n, fn, step) {
      var out = []; for (var i = Number(this); i >= n; i -= step || 1) out.push(fn ? fn(i) : i); return out;
    },
    chr: function () { return String.fromCharCode(this); }
  });

  // Sugar's date arithmetic, in local time, changing the date and returning it; a month or year added to the
  // 31st lands on the month's last day (Jan 31 + 1 month is Feb 28 or 29), as Sugar does.
  function add(set, get) {
    return function (n) { this[set](this[get]() + Number(n)); return this; };
  }
  function addMonths(n) {
    var day = this.getDate();
    this.setDate(1);
    this.setMonth(this.getMonth() + Number(n));
    this.setDate(Math.min(day, new Date(this.getFullYear(), this.getMonth() + 1, 0).getDate()));
    return this;
  }
  extend(Date.prototype, {
    addMilliseconds: add('setMilliseconds', 'getMilliseconds'),
    addSeconds: add('setSeconds', 'getSeconds'),
    addMinutes: add('setMinutes', 'getMinutes'),
    addHours: add('setHours', 'getHours'),
    addDays: add('setDate', 'getDate'),
    addWeeks: function (n) { return this.addDays(7 * Number(n)); },
    addMonths: addMonths,
    addYears: function (n) { return addMonths.call(this, 12 * Number(n)); },
    isBefore: function (d) { return this.getTime() < new Date(d).getTime(); },
    isAfter: function (d) { return this.getTime() > new Date(d).getTime(); },
    isPast: function () { return this.getTime() < Date.now(); },
    isFuture: function () { return this.getTime() > Date.now(); }
  });

  extend(Function.prototype, {
    once: function () {
      var fn = this, done = false, result;
      return function () {
        if (!done) { done = true; result = fn.apply(this, arguments); }
        return result;
      };
    }
  });

  function kind(name) { return function (v) { return Object.prototype.toString.call(v) === '[object ' + name + ']'; }; }
  var statics = {
    has: function (o, k) { return o != null && Object.prototype.hasOwnProperty.call(o, k); },
    isString: kind('String'), isNumber: kind('Number'), isBoolean: kind('Boolean'), isArray: Array.isArray,
    isFunction: function (v) { return typeof v === 'function'; }, isRegExp: kind('RegExp'), isDate: kind('Date'),
    isObject: function (v) { return Object.prototype.toString.call(v) === '[object Object]'; },
    merge: function (target, source, deep) {
      Object.keys(source || {}).forEach(function (k) {
        var v = source[k];
        target[k] = deep && v !== null && typeof v === 'object' ? statics.merge(target[k] && typeof target[k] === 'object' ? target[k] : Array.isArray(v) ? [] : {}, v, true) : v;
      });
      return target;
    },
    clone: function (o, deep) {
      if (o === null || typeof o !== 'object') return o;
      return deep ? JSON.parse(JSON.stringify(o)) : Array.isArray(o) ? o.slice() : Object.assign({}, o);
    },
    isEmpty: function (o) { return o == null || (typeof o === 'object' ? Object.keys(o).length === 0 : String(o).length === 0); },
    equal: equal,
    size: function (o) { return Object.keys(o || {}).length; },
    each: function (o, fn) { Object.keys(o).forEach(function (k) { fn(k, o[k]); }); return o; },
    map: function (o, fn) { var out = {}; Object.keys(o).forEach(function (k) { out[k] = fn(k, o[k]); }); return out; },
    select: function (o) {
      var keys = Array.prototype.slice.call(arguments, 1).reduce(function (a, k) { return a.concat(k); }, []), out = {};
      keys.forEach(function (k) { if (Object.prototype.hasOwnProperty.call(o, k)) out[k] = o[k]; });
      return out;
    },
    reject: function (o) {
      var keys = Array.prototype.slice.call(arguments, 1).reduce(function (a, k) { return a.concat(k); }, []), out = {};
      Object.keys(o).forEach(function (k) { if (keys.indexOf(k) < 0) out[k] = o[k]; });
      return out;
    }
  };
  // Object.extended(o): a copy whose methods are Object's statics applied to itself (Sugar's Hash).
  var hashMethods = {};
  ['has', 'merge', 'clone', 'isEmpty', 'equal', 'size', 'each', 'map', 'select', 'reject'].forEach(function (name) {
    hashMethods[name] = function () { return statics[name].apply(null, [this].concat(Array.prototype.slice.call(arguments))); };
  });
  hashMethods.keys = function () { return Object.keys(this); };
  hashMethods.values = function () { var self = this; return Object.keys(this).map(function (k) { return self[k]; }); };
  var hashPrototype = {};
  extend(hashPrototype, hashMethods);
  statics.extended = function (o) { return Object.assign(Object.create(hashPrototype), o || {}); };
  extend(Object, statics);

  global.__reqrunLegacy = {
    // postman-sandbox's legacy `request` (postman-legacy-interface.js): header names in lower case, a repeated
    // one as an array (postman-collection's HeaderList.toObject(true, false, true, true)).
    request: function (request) {
      var headers = {};
      request.headers.forEach(function (h) {
        var key = h.key.toLowerCase();
        if (!Object.prototype.hasOwnProperty.call(headers, key)) headers[key] = h.value;
        else if (Array.isArray(headers[key])) headers[key].push(h.value);
        else headers[key] = [headers[key], h.value];
      });
      var data = {}, body = request.body;
      if (body && body.mode === 'raw' && body.raw) data = body.raw;
      else if (body && body.fields) {
        body.fields.forEach(function (f) {
          if (!Object.prototype.hasOwnProperty.call(data, f.key)) data[f.key] = f.value;
          else if (Array.isArray(data[f.key])) data[f.key].push(f.value);
          else data[f.key] = [data[f.key], f.value];
        });
      }
      return { id: request.id || undefined, name: request.name, description: undefined, headers: headers,
               method: request.method, url: request.url, data: data };
    }
  };
})(this);
"""#
}
