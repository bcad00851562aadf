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
}
