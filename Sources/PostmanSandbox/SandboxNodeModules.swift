/// Node's `path` and `util` modules, which postman-sandbox bundles (as browserify's `path-browserify` and
/// `util`) and Debian does not package: our own CommonJS bodies, with Node's meanings for what scripts use.
///
/// - `path`: the POSIX flavour (`path.posix` is the module itself): `sep` `/`, `delimiter` `:`, `join`,
///   `normalize`, `resolve` (from `/`: a script has no working directory), `relative`, `dirname`,
///   `basename(path[, ext])`, `extname`, `isAbsolute`, `parse`, `format`. `path.win32` is not there.
/// - `util`: `format` (`%s`, `%d`, `%i`, `%f`, `%j`, `%o`, `%O`, `%%`; extra arguments joined with spaces),
///   `inspect` (JSON-like text of a value, functions as `[Function: name]`), `inherits`, `deprecate` (the
///   function itself: there is no process to warn on), `promisify`, `callbackify`, `isDeepStrictEqual`, and
///   the old `isArray`, `isString`, … predicates.
enum SandboxNodeModules {
    static let path = #"""
function normalizeParts(parts, absolute) {
  var out = [];
  parts.forEach(function (part) {
    if (part === '' || part === '.') return;
    if (part === '..') { if (out.length && out[out.length - 1] !== '..') out.pop(); else if (!absolute) out.push('..'); return; }
    out.push(part);
  });
  return out;
}
function text(p) { if (typeof p !== 'string') throw new TypeError('The "path" argument must be of type string'); return p; }
function normalize(p) {
  text(p);
  if (p === '') return '.';
  var absolute = p.charAt(0) === '/', trailing = p.charAt(p.length - 1) === '/';
  var result = normalizeParts(p.split('/'), absolute).join('/');
  if (!result && !absolute) result = '.';
  if (result && trailing) result += '/';
  return (absolute ? '/' : '') + result;
}
function join() {
  var parts = Array.prototype.slice.call(arguments).map(text).filter(function (p) { return p !== ''; });
  return parts.length ? normalize(parts.join('/')) : '.';
}
function resolve() {
  var resolved = '';
  for (var i = arguments.length - 1; i >= 0 && resolved.charAt(0) !== '/'; i--) {
    var p = text(arguments[i]);
    if (p) resolved = p + (resolved ? '/' + resolved : '');
  }
  return '/' + normalizeParts(resolved.split('/'), true).join('/');
}
function relative(from, to) {
  var a = resolve(from).split('/').filter(Boolean), b = resolve(to).split('/').filter(Boolean), i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(i).map(function () { return '..'; }).concat(b.slice(i)).join('/');
}
function dirname(p) {
  text(p);
  if (p === '') return '.';
  var trimmed = p.replace(/\/+$/, '');
  if (trimmed === '') return '/';
  var at = trimmed.lastIndexOf('/');
  if (at < 0) return '.';
  return trimmed.slice(0, at).replace(/\/+$/, '') || '/';
}
function basename(p, ext) {
  var base = text(p).replace(/\/+$/, '');
  base = base.slice(base.lastIndexOf('/') + 1);
  if (typeof ext === 'string' && ext && base !== ext && base.slice(-ext.length) === ext) base = base.slice(0, -ext.length);
  return base;
}
function extname(p) {
  var base = basename(p), dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot);
}
function parse(p) {
  var root = text(p).charAt(0) === '/' ? '/' : '', base = basename(p), ext = extname(p);
  var dir = dirname(p);
  if (dir === '.' && p.indexOf('/') < 0) dir = '';
  return { root: root, dir: dir, base: base, ext: ext, name: ext ? base.slice(0, -ext.length) : base };
}
function format(o) {
  var dir = o.dir || o.root || '', base = o.base || ((o.name || '') + (o.ext || ''));
  return dir ? (dir === o.root ? dir + base : dir + '/' + base) : base;
}
module.exports = { sep: '/', delimiter: ':', normalize: normalize, join: join, resolve: resolve, relative: relative,
  dirname: dirname, basename: basename, extname: extname, isAbsolute: function (p) { return text(p).charAt(0) === '/'; },
  parse: parse, format: format };
module.exports.posix = module.exports;
"""#

    static let util = #"""
function inspect(value, seen) {
  seen = seen || [];
  if (typeof value === 'string') return seen.length ? "'" + value.replace(/'/g, "\\'") + "'" : value;
  if (typeof value === 'function') return '[Function: ' + (value.name || '(anonymous)') + ']';
  if (typeof value === 'bigint') return value + 'n';
  if (typeof value === 'symbol') return value.toString();
  if (value === null || typeof value !== 'object') return String(value);
  if (seen.indexOf(value) >= 0) return '[Circular]';
  if (value instanceof Date) return isNaN(value) ? 'Invalid Date' : value.toISOString();
  if (value instanceof RegExp) return String(value);
  if (value instanceof Error) return value.stack || (value.name + ': ' + value.message);
  var inner = seen.concat([value]);
  if (Array.isArray(value)) {
    return value.length ? '[ ' + value.map(function (v) { return inspect(v, inner); }).join(', ') + ' ]' : '[]';
  }
  var keys = Object.keys(value);
  if (!keys.length) return '{}';
  return '{ ' + keys.map(function (k) {
    return (/^[A-Za-z_$][\w$]*$/.test(k) ? k : "'" + k + "'") + ': ' + inspect(value[k], inner);
  }).join(', ') + ' }';
}
function format(first) {
  var args = Array.prototype.slice.call(arguments, 1), result;
  if (typeof first !== 'string') {
    return Array.prototype.slice.call(arguments).map(function (v) { return typeof v === 'string' ? v : inspect(v); }).join(' ');
  }
  result = first.replace(/%([sdifjoO%])/g, function (whole, kind) {
    if (kind === '%') return '%';
    if (!args.length) return whole;
    var v = args.shift();
    switch (kind) {
      case 's': return typeof v === 'string' ? v : (typeof v === 'object' && v !== null ? inspect(v) : String(v));
      case 'd': return typeof v === 'object' && v !== null ? 'NaN' : String(Number(v));
      case 'i': return String(parseInt(v, 10));
      case 'f': return String(parseFloat(v));
      case 'j': try { return JSON.stringify(v); } catch (e) { return '[Circular]'; }
      default: return inspect(v);
    }
  });
  return args.length ? result + ' ' + args.map(function (v) { return typeof v === 'string' ? v : inspect(v); }).join(' ') : result;
}
function deepEqual(a, b) {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (a instanceof Date) return a.getTime() === b.getTime();
  var ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every(function (k) { return Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]); });
}
module.exports = {
  format: format,
  inspect: inspect,
  inherits: function (ctor, superCtor) {
    Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
    Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
  },
  deprecate: function (fn) { return fn; },
  promisify: function (fn) {
    return function () {
      var self = this, args = Array.prototype.slice.call(arguments);
      return new Promise(function (resolve, reject) {
        fn.apply(self, args.concat([function (err, value) { if (err) reject(err); else resolve(value); }]));
      });
    };
  },
  callbackify: function (fn) {
    return function () {
      var args = Array.prototype.slice.call(arguments), callback = args.pop();
      fn.apply(this, args).then(function (v) { callback(null, v); }, function (e) { callback(e); });
    };
  },
  isDeepStrictEqual: deepEqual,
  isArray: Array.isArray,
  isBoolean: function (v) { return typeof v === 'boolean'; },
  isNull: function (v) { return v === null; },
  isNullOrUndefined: function (v) { return v === null || v === undefined; },
  isNumber: function (v) { return typeof v === 'number'; },
  isString: function (v) { return typeof v === 'string'; },
  isSymbol: function (v) { return typeof v === 'symbol'; },
  isUndefined: function (v) { return v === undefined; },
  isRegExp: function (v) { return v instanceof RegExp; },
  isObject: function (v) { return v !== null && typeof v === 'object'; },
  isDate: function (v) { return v instanceof Date; },
  isError: function (v) { return v instanceof Error; },
  isFunction: function (v) { return typeof v === 'function'; },
  isPrimitive: function (v) { return v === null || (typeof v !== 'object' && typeof v !== 'function'); }
};
"""#
}
