/// Node's `assert` and `string_decoder` modules, which postman-sandbox bundles (as browserify's `assert` and
/// `string_decoder`): our own CommonJS bodies with Node's API, small enough to keep here.
///
/// - `assert`: callable (`assert(value[, message])` is `assert.ok`), `ok`, `equal`/`notEqual` (`==`),
///   `strictEqual`/`notStrictEqual` (`Object.is`), `deepEqual`/`notDeepEqual` (loose: primitives by `==`,
///   prototypes ignored), `deepStrictEqual`/`notDeepStrictEqual` (`Object.is`, prototypes compared; `Date`,
///   `RegExp`, `Map`, `Set` by value), `throws`/`doesNotThrow`, `rejects`/`doesNotReject`, `match`/
///   `doesNotMatch`, `fail`, `ifError`, `AssertionError` (`actual`, `expected`, `operator`, `code`
///   `ERR_ASSERTION`, `generatedMessage`) and `assert.strict` (the strict functions under the loose names).
///   A generated message is `ACTUAL OPERATOR EXPECTED` with `util.inspect`'s text, as browserify's assert
///   writes it (Node's own quotes the source line, which a sandbox does not have).
/// - `string_decoder`: `StringDecoder(encoding)` (`utf8` by default, `utf16le`/`ucs2`, `latin1`/`binary`,
///   `ascii`, `hex`, `base64`) with `write(buffer)` and `end([buffer])`: a UTF-8 or UTF-16 character split
///   across buffers is held back until its last byte arrives, as Node's decoder does (`end()` gives one
///   U+FFFD for an unfinished UTF-8 character).
enum SandboxNodeAssert {
    static let assert = #"""
var inspect = require('util').inspect;
function AssertionError(options) {
  var message = options.message;
  this.generatedMessage = !message;
  this.message = message || (inspect(options.actual) + ' ' + options.operator + ' ' + inspect(options.expected));
  this.actual = options.actual; this.expected = options.expected; this.operator = options.operator;
  this.code = 'ERR_ASSERTION';
  this.stack = new Error(this.message).stack;
}
AssertionError.prototype = Object.create(Error.prototype);
AssertionError.prototype.constructor = AssertionError;
AssertionError.prototype.name = 'AssertionError';
function fail(actual, expected, message, operator) {
  if (message instanceof Error) throw message;
  throw new AssertionError({ actual: actual, expected: expected, message: message, operator: operator });
}
function deep(a, b, strict, seen) {
  if (strict ? Object.is(a, b) : (a === b || (typeof a !== 'object' && typeof b !== 'object' && a == b))) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return !strict && (a === null || typeof a !== 'object') && (b === null || typeof b !== 'object') && a == b;
  }
  if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (a instanceof RegExp || b instanceof RegExp) return String(a) === String(b);
  seen = seen || [];
  for (var i = 0; i < seen.length; i++) if (seen[i][0] === a && seen[i][1] === b) return true;
  seen = seen.concat([[a, b]]);
  if (a instanceof Map || a instanceof Set) {
    if (!(b instanceof Map || b instanceof Set) || a.size !== b.size) return false;
    var left = Array.from(a.entries()), right = Array.from(b.entries());
    return left.every(function (entry) {
      return right.some(function (other) { return deep(entry[0], other[0], strict, seen) && deep(entry[1], other[1], strict, seen); });
    });
  }
  var ka = Object.keys(a), kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every(function (k) { return Object.prototype.hasOwnProperty.call(b, k) && deep(a[k], b[k], strict, seen); });
}
function ok(value, message) {
  if (arguments.length === 0) fail(undefined, true, 'No value argument passed to `assert.ok()`', '==');
  if (!value) fail(value, true, message, '==');
}
function matches(error, expected) {
  if (expected === undefined) return true;
  if (expected instanceof RegExp) return expected.test(String(error));
  if (typeof expected === 'function') {
    if (expected.prototype !== undefined && error instanceof expected) return true;
    if (Error.isPrototypeOf(expected) || expected === Error) return false;
    return expected.call({}, error) === true;
  }
  if (typeof expected === 'object' && expected !== null) {
    return Object.keys(expected).every(function (k) {
      var want = expected[k], have = error !== null && error !== undefined ? error[k] : undefined;
      return want instanceof RegExp && typeof have === 'string' ? want.test(have) : deep(have, want, true);
    });
  }
  return false;
}
function expectedName(expected) {
  return typeof expected === 'function' && expected.name ? ' (' + expected.name + ')' : '';
}
function checkThrown(threw, error, expected, message, operator) {
  if (typeof expected === 'string') { message = expected; expected = undefined; }
  if (!threw) fail(undefined, expected, 'Missing expected ' + (operator === 'rejects' ? 'rejection' : 'exception') +
    expectedName(expected) + (message ? ': ' + message : '.'), operator);
  if (!matches(error, expected)) {
    if (typeof expected === 'object' && !(expected instanceof RegExp)) fail(error, expected, message, 'deepStrictEqual');
    throw error;
  }
}
function checkNotThrown(threw, error, expected, message, operator) {
  if (typeof expected === 'string') { message = expected; expected = undefined; }
  if (threw && matches(error, expected)) {
    fail(error, expected, 'Got unwanted ' + (operator === 'doesNotReject' ? 'rejection' : 'exception') +
      (message ? ': ' + message : '.') + '\nActual message: "' + (error && error.message) + '"', operator);
  }
  if (threw) throw error;
}
function attempt(fn) {
  if (typeof fn !== 'function') throw new TypeError('The "fn" argument must be of type function');
  try { fn(); } catch (e) { return { threw: true, error: e }; }
  return { threw: false };
}
function settled(promiseOrFn) {
  var promise = typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn;
  return Promise.resolve(promise).then(function () { return { threw: false }; }, function (e) { return { threw: true, error: e }; });
}
function assert(value, message) { ok.apply(null, arguments); }
assert.ok = ok;
assert.AssertionError = AssertionError;
assert.fail = function (message) {
  if (arguments.length >= 2) fail(arguments[0], arguments[1], arguments[2], arguments[3] || '!=');
  fail(undefined, undefined, message === undefined ? 'Failed' : message, 'fail');
};
assert.equal = function (a, b, m) { if (!(a == b || (a !== a && b !== b))) fail(a, b, m, '=='); };
assert.notEqual = function (a, b, m) { if (a == b || (a !== a && b !== b)) fail(a, b, m, '!='); };
assert.strictEqual = function (a, b, m) { if (!Object.is(a, b)) fail(a, b, m, '==='); };
assert.notStrictEqual = function (a, b, m) { if (Object.is(a, b)) fail(a, b, m, '!=='); };
assert.deepEqual = function (a, b, m) { if (!deep(a, b, false)) fail(a, b, m, 'deepEqual'); };
assert.notDeepEqual = function (a, b, m) { if (deep(a, b, false)) fail(a, b, m, 'notDeepEqual'); };
assert.deepStrictEqual = function (a, b, m) { if (!deep(a, b, true)) fail(a, b, m, 'deepStrictEqual'); };
assert.notDeepStrictEqual = function (a, b, m) { if (deep(a, b, true)) fail(a, b, m, 'notDeepStrictEqual'); };
assert.match = function (s, re, m) { if (typeof s !== 'string' || !re.test(s)) fail(s, re, m, 'match'); };
assert.doesNotMatch = function (s, re, m) { if (typeof s !== 'string' || re.test(s)) fail(s, re, m, 'doesNotMatch'); };
assert.ifError = function (value) {
  if (value !== null && value !== undefined) {
    if (value instanceof Error) throw value;
    fail(value, null, 'ifError got unwanted exception: ' + inspect(value), 'ifError');
  }
};
assert.throws = function (fn, expected, message) {
  var r = attempt(fn); checkThrown(r.threw, r.error, expected, message, 'throws');
};
assert.doesNotThrow = function (fn, expected, message) {
  var r = attempt(fn); checkNotThrown(r.threw, r.error, expected, message, 'doesNotThrow');
};
assert.rejects = function (promise, expected, message) {
  return settled(promise).then(function (r) { checkThrown(r.threw, r.error, expected, message, 'rejects'); });
};
assert.doesNotReject = function (promise, expected, message) {
  return settled(promise).then(function (r) { checkNotThrown(r.threw, r.error, expected, message, 'doesNotReject'); });
};
function strict(value, message) { ok.apply(null, arguments); }
Object.keys(assert).forEach(function (k) { strict[k] = assert[k]; });
strict.equal = assert.strictEqual; strict.notEqual = assert.notStrictEqual;
strict.deepEqual = assert.deepStrictEqual; strict.notDeepEqual = assert.notDeepStrictEqual;
strict.strict = strict; assert.strict = strict;
module.exports = assert;
"""#

    static let stringDecoder = #"""
var Buffer = require('buffer').Buffer;
function normal(encoding) {
  var e = String(encoding || 'utf8').toLowerCase();
  if (e === 'utf-8') return 'utf8';
  if (e === 'ucs2' || e === 'ucs-2' || e === 'utf-16le' || e === 'utf16le') return 'utf16le';
  if (e === 'binary') return 'latin1';
  if (['utf8', 'latin1', 'ascii', 'hex', 'base64'].indexOf(e) < 0) throw new TypeError('Unknown encoding: ' + encoding);
  return e;
}
/// How many bytes at the end of `buf` start a character that is not complete yet.
function pending(buf, encoding) {
  if (encoding === 'utf16le') return buf.length % 2;
  if (encoding === 'base64') return buf.length % 3;
  if (encoding !== 'utf8') return 0;
  for (var back = 1; back <= Math.min(3, buf.length); back++) {
    var byte = buf[buf.length - back];
    if ((byte & 0xC0) === 0x80) continue;
    var need = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}
function StringDecoder(encoding) {
  this.encoding = normal(encoding);
  this.held = Buffer.alloc(0);
}
StringDecoder.prototype.write = function (buf) {
  if (typeof buf === 'string') return buf;
  var all = Buffer.concat([this.held, Buffer.from(buf)]), keep = pending(all, this.encoding);
  if (this.encoding === 'utf16le' && !keep && all.length >= 2) {
    var last = all.readUInt16LE(all.length - 2);
    if (last >= 0xD800 && last <= 0xDBFF) keep = 2;
  }
  this.held = all.slice(all.length - keep);
  return all.slice(0, all.length - keep).toString(this.encoding);
};
StringDecoder.prototype.end = function (buf) {
  var text = buf === undefined ? '' : this.write(buf), rest = this.held;
  this.held = Buffer.alloc(0);
  if (!rest.length) return text;
  return text + (this.encoding === 'utf8' ? '\ufffd' : rest.toString(this.encoding));
};
exports.StringDecoder = StringDecoder;
"""#
}
