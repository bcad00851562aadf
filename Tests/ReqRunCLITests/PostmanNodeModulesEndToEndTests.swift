import Foundation
import Testing
import TestSupport

/// Node's `path` and `util`, our own (`SandboxNodeModules`), as scripts use them.
@Suite struct PostmanNodeModulesEndToEndTests {
    @Test func pathAndUtil() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/scripts.json", PostmanScriptsEndToEndTests.collection([
            ("modules", "\(base)/get", [], [
                "const path = require('path'), util = require('util');",
                "pm.test('path', () => {",
                "  pm.expect(path.join('/a/b', '../c', './d.json')).to.equal('/a/c/d.json');",
                "  pm.expect(path.normalize('a//b/../c/')).to.equal('a/c/'); pm.expect(path.resolve('x', '/y', 'z')).to.equal('/y/z');",
                "  pm.expect(path.relative('/a/b/c', '/a/d')).to.equal('../../d'); pm.expect(path.dirname('/a/b/')).to.equal('/a');",
                "  pm.expect(path.basename('/a/b.txt', '.txt')).to.equal('b'); pm.expect(path.extname('x/.profile')).to.equal('');",
                "  pm.expect(path.parse('/home/u/f.tar.gz')).to.eql({root: '/', dir: '/home/u', base: 'f.tar.gz', ext: '.gz', name: 'f.tar'});",
                "  pm.expect(path.format({dir: '/x', base: 'y.js'})).to.equal('/x/y.js'); pm.expect(path.posix.sep).to.equal('/'); });",
                "pm.test('util', async () => {",
                "  pm.expect(util.format('%s=%d %j %%', 'n', 42, {a: [1]}, 'extra')).to.equal('n=42 {\"a\":[1]} % extra');",
                "  pm.expect(util.inspect({a: 'x', b: [1, {c: null}]})).to.equal(\"{ a: 'x', b: [ 1, { c: null } ] }\");",
                "  function A() {} function B() {} util.inherits(B, A); pm.expect(new B()).to.be.an.instanceof(A);",
                "  pm.expect(await util.promisify((x, cb) => cb(null, x * 2))(21)).to.equal(42);",
                "  pm.expect(util.isDeepStrictEqual({a: [1]}, {a: [1]})).to.be.true; pm.expect(util.isString('s')).to.be.true; });",
            ]),
        ]))
        let output = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("✓ path") && output.stdout.contains("✓ util"), "\(output.stdout)")
    }

    /// Node's `assert` and `string_decoder` (`SandboxNodeAssert`): passing and failing assertions, the
    /// AssertionError's fields, and a UTF-8 character split across two buffers.
    @Test func assertAndStringDecoder() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/scripts.json", PostmanScriptsEndToEndTests.collection([
            ("modules", "\(base)/get", [], [
                "const assert = require('assert'), { StringDecoder } = require('string_decoder');",
                "pm.test('assert passes', () => {",
                "  assert(1); assert.ok(true); assert.equal(1, '1'); assert.notEqual(1, 2); assert.strictEqual(NaN, NaN);",
                "  assert.deepEqual({a: [1, '2']}, {a: ['1', 2]}); assert.deepStrictEqual(new Map([[1, {x: 1}]]), new Map([[1, {x: 1}]]));",
                "  assert.notDeepStrictEqual({a: 1}, {a: '1'}); assert.throws(() => { throw new TypeError('bad'); }, TypeError);",
                "  assert.throws(() => { throw new Error('bad thing'); }, /bad/); assert.throws(() => { throw new Error('x'); }, {message: 'x'});",
                "  assert.doesNotThrow(() => 1); assert.match('abc', /b/); assert.ifError(null); assert.strict.equal(1, 1); });",
                "pm.test('assert fails', () => {",
                "  let e; try { assert.strictEqual(1, 2); } catch (x) { e = x; }",
                "  pm.expect(e).to.be.an.instanceof(assert.AssertionError); pm.expect(e.message).to.equal('1 === 2');",
                "  pm.expect([e.name, e.code, e.actual, e.expected, e.operator]).to.eql(['AssertionError', 'ERR_ASSERTION', 1, 2, '===']);",
                "  try { assert.throws(() => 1); } catch (x) { e = x; } pm.expect(e.message).to.equal('Missing expected exception.');",
                "  try { assert.strict.deepEqual([1], ['1'], 'my text'); } catch (x) { e = x; } pm.expect(e.message).to.equal('my text');",
                "  pm.expect(() => assert.ok(0)).to.throw(assert.AssertionError); });",
                "pm.test('assert rejects', async () => { await assert.rejects(Promise.reject(new Error('no')), /no/); });",
                "pm.test('string_decoder', () => {",
                "  const d = new StringDecoder('utf8'), euro = Buffer.from('€');",
                "  pm.expect(d.write(euro.slice(0, 1))).to.equal(''); pm.expect(d.write(euro.slice(1))).to.equal('€');",
                "  pm.expect(d.write(Buffer.from([0xE2, 0x82]))).to.equal(''); pm.expect(d.end()).to.equal('\\ufffd');",
                "  pm.expect(new StringDecoder('hex').write(Buffer.from('hi'))).to.equal('6869'); });",
                "assert.strictEqual(1, 2, 'top-level assertion');",
            ]),
        ]))
        let output = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        for name in ["assert passes", "assert fails", "assert rejects", "string_decoder"] {
            #expect(output.stdout.contains("✓ \(name)"), "\(name): \(output.stdout)")
        }
        #expect(output.status != 0 && (output.stdout + output.stderr).contains("top-level assertion"), "\(output.stdout)\(output.stderr)")
    }
}
