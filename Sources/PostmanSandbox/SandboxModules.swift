import Foundation
import ReqRunKit

/// What `require()` finds for scripts: CommonJS modules from Debian's packages, read where Debian installs
/// them (never copied into this repository), and a few of our own.
///
/// A script may name only the modules postman-sandbox bundles (Postman's "Using external libraries" list)
/// that Debian packages or reqrun provides: `scriptModules` and `ownModules`, plus `chai`, `atob` and
/// `btoa`, which the prelude already holds. A module, once loaded, resolves its own `require`s as Node does
/// (`./x`, `../x`, `x/y`: the file, `.js`, `.json`, a folder's `package.json` `main` or `index.js`;
/// `node_modules` folders up from the module, then the roots), but only to regular `.js` and `.json` files
/// whose real path (symbolic links resolved) lies inside `roots`: nothing else on disk is reachable from a
/// script, and no script chooses a path. Each file is read when first required and kept by the context for
/// the run (`SandboxLoader`).
enum SandboxModules {
    /// The folders modules are read from: Debian's `/usr/share/nodejs` (node-* packages) and
    /// `/usr/share/javascript` (libjs-* packages, and where some node-* files link to).
    static let roots = ["/usr/share/nodejs/", "/usr/share/javascript/"]
    /// The largest module file read (Debian's largest, lodash.js, is 540 KB).
    static let fileBound = 8 << 20

    /// A module a script may name, from a Debian package: `files` (nil: found by Node's resolution in the
    /// roots), evaluated in order as one module; `exportName`, the global the files define (crypto-js 3's
    /// components share `CryptoJS`), for files that do not set `module.exports`.
    struct Packaged {
        var package: String
        var files: [String]?
        var exportName: String?
    }

    static let scriptModules: [String: Packaged] = [
        "lodash": Packaged(package: "libjs-lodash", files: ["/usr/share/javascript/lodash/lodash.min.js"]),
        "moment": Packaged(package: "libjs-moment", files: ["/usr/share/javascript/moment/moment.min.js"]),
        // crypto-js's own index.js order (each component needs the ones before it).
        "crypto-js": Packaged(package: "libjs-cryptojs", files: [
            "core", "x64-core", "lib-typedarrays", "enc-utf16", "enc-base64", "md5", "sha1", "sha256", "sha224", "sha512",
            "sha384", "sha3", "ripemd160", "hmac", "pbkdf2", "evpkdf", "cipher-core", "mode-cfb", "mode-ctr",
            "mode-ctr-gladman", "mode-ofb", "mode-ecb", "pad-ansix923", "pad-iso10126", "pad-iso97971", "pad-zeropadding",
            "pad-nopadding", "format-hex", "aes", "tripledes", "rc4", "rabbit", "rabbit-legacy",
        ].map { "/usr/share/javascript/cryptojs/components/\($0)-min.js" }, exportName: "CryptoJS"),
        "ajv": Packaged(package: "node-ajv"),
        "xml2js": Packaged(package: "node-xml2js"),
        "cheerio": Packaged(package: "node-cheerio"),
        // Node's own modules that postman-sandbox allows, as browserify's packages that Debian ships.
        "buffer": Packaged(package: "node-buffer"),
        "events": Packaged(package: "node-events"),
        "url": Packaged(package: "node-url"),
        "querystring": Packaged(package: "node-querystring"),
        "punycode": Packaged(package: "node-punycode"),
    ]

    /// Every name a script may require, sorted (for `Cannot find module`'s message).
    static var provided: [String] {
        (Array(scriptModules.keys) + Array(ownModules.keys) + ["atob", "btoa", "chai"]).sorted()
    }

    /// Modules of our own, as CommonJS bodies: `uuid` (uuid 3's API, which Postman bundles: callable, and
    /// `.v4()`; Debian's node-uuid is version 8, whose module is not callable), `tv4` (`SandboxTV4`) and
    /// `timers` (the sandbox's own timers, `SandboxTimers`; xml2js's `async` option uses its `setImmediate`), Node's
    /// `path` and `util` (`SandboxNodeModules`), `assert` and `string_decoder` (`SandboxNodeAssert`).
    static let ownModules: [String: String] = [
        // Math.random's bits (JavaScriptCore has no crypto.getRandomValues here), formatted as RFC 9562 §5.4.
        "uuid": """
            function v4() {
              return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, function (c) {
                var r = Math.random() * 16 | 0;
                return (c === 'x' ? r : (r & 0x3 | 0x8)).toString(16);
              });
            }
            v4.v4 = v4;
            module.exports = v4;
            """,
        // Never evaluated: `SandboxTimers` provides its exports (the globals' functions) before any script runs.
        "timers": "module.exports = {};",
        "tv4": SandboxTV4.source,
        "path": SandboxNodeModules.path,
        "util": SandboxNodeModules.util,
        "assert": SandboxNodeAssert.assert,
        "string_decoder": SandboxNodeAssert.stringDecoder,
    ]

    /// What the loader gets for `require(request)` from the module whose file is `parent` ("": a script):
    /// `js ID\nBODY` or `json ID\nTEXT` (ID: the file's real path, or `reqrun:NAME` for our own), `missing
    /// PACKAGE` for a known module whose package is not installed, nil when there is no such module.
    static func load(_ request: String, from parent: String) -> String? {
        if let own = ownModules[request] { return "js reqrun:\(request)\n" + own }
        if parent.isEmpty || parent.hasPrefix("reqrun:") {
            // A package's own files by path (`ajv/lib/refs/json-schema-draft-04.json`), as Node allows.
            let package = String(request.prefix { $0 != "/" })
            if package != request, let module = scriptModules[package], module.files == nil,
               !request.split(separator: "/").contains(where: { $0 == "." || $0 == ".." }) {
                return resolve(request, from: nil).flatMap(loaded)
            }
            guard let module = scriptModules[request] else { return nil }
            if let files = module.files {
                var body = ""
                for file in files {
                    guard let text = read(file) else { return "missing \(module.package)" }
                    body += text + "\n;\n"
                }
                if let exportName = module.exportName { body += "module.exports = \(exportName);\n" }
                return "js \(files[0])\n" + body
            }
            guard let path = resolve(request, from: nil) else { return "missing \(module.package)" }
            return loaded(path)
        }
        return resolve(request, from: parent).flatMap(loaded)
    }

    private static func loaded(_ path: String) -> String? {
        guard let text = read(path) else { return nil }
        return (path.hasSuffix(".json") ? "json " : "js ") + path + "\n" + text
    }

    /// The real path of the file `request` names from the file `parent` (nil: a bare name from the roots),
    /// by Node's rules (nodejs.org/api/modules.html, "All together"), inside `roots`.
    static func resolve(_ request: String, from parent: String?) -> String? {
        guard !request.isEmpty, !request.hasPrefix("/"), !request.contains("\0") else { return nil }
        if request == "." || request == ".." || request.hasPrefix("./") || request.hasPrefix("../") {
            guard let parent else { return nil }
            let base = (parent as NSString).deletingLastPathComponent + "/" + request
            return file(base) ?? directory(base)
        }
        var folders: [String] = []
        if let parent {
            var folder = (parent as NSString).deletingLastPathComponent
            while inRoots(folder + "/") {
                if !folder.hasSuffix("/node_modules") { folders.append(folder + "/node_modules") }
                folder = (folder as NSString).deletingLastPathComponent
            }
        }
        folders.append(contentsOf: roots.map { String($0.dropLast()) })
        for folder in folders {
            let base = folder + "/" + request
            if let found = file(base) ?? directory(base) { return found }
        }
        return nil
    }

    /// X, X.js, X.json.
    private static func file(_ base: String) -> String? {
        for candidate in [base, base + ".js", base + ".json"] {
            if let path = checked(candidate) { return path }
        }
        return nil
    }

    /// X/package.json's `main`, X/index.js, X/index.json.
    private static func directory(_ base: String) -> String? {
        if let manifest = read(base + "/package.json"),
           let object = try? JSONSerialization.jsonObject(with: Data(manifest.utf8)) as? [String: Any],
           let main = object["main"] as? String, !main.isEmpty {
            let target = base + "/" + main
            if let found = file(target) ?? file(target + "/index") { return found }
        }
        return file(base + "/index")
    }

    /// `path`'s real path when it is a regular `.js` or `.json` file inside the roots.
    /// (Resolution only: what is read is checked again on the open file, see `read`.)
    private static func checked(_ path: String) -> String? {
        guard let real = realPath(path), inRoots(real), real.hasSuffix(".js") || real.hasSuffix(".json") else { return nil }
        var info = stat()
        guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= fileBound else { return nil }
        return real
    }

    private static func inRoots(_ path: String, _ roots: [String] = roots) -> Bool { roots.contains { path.hasPrefix($0) } }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The UTF-8 text of a regular `.js` or `.json` file inside `roots`, within `bound` bytes; nil otherwise.
    /// Read once through the workspace's reader (`FileBytes`: opened without following a link, as its real
    /// path has none, then `fstat` of the open file and reads bounded), so the file checked is the file
    /// evaluated even if its path is replaced in between.
    static func read(_ path: String, roots: [String] = roots, bound: Int = fileBound) -> String? {
        guard let real = realPath(path), inRoots(real, roots), real.hasSuffix(".js") || real.hasSuffix(".json"),
              case .success(let bytes) = FileBytes.read(atPath: real, bound: FileSizeBound(bytes: bound, kind: "a module"),
                                                        regularOnly: true, followingLinks: false) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
