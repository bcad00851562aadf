import Foundation

/// The modules `require()` gives scripts, from Debian's packages (read from where they install them, never
/// copied into this repository), as postman-sandbox bundles them: `lodash` (libjs-lodash 4.17; Postman's
/// `_` global too), `moment` (libjs-moment) and `crypto-js` (libjs-cryptojs 3.1.2, every component; the
/// legacy sandbox's `CryptoJS` global too); and our own `uuid` (uuid 3's API, which Postman bundles:
/// `require('uuid')()` and `.v4()` give a random, version 4 UUID; Debian's node-uuid is version 8, whose
/// module is not callable).
///
/// A module is read and defined in the context the first time a script that names it runs
/// (`require('name')` with a literal name, or its global: `_.`, `CryptoJS.`), so a run pays only for the
/// modules it uses.
/// Any other name is an error naming the module, thrown by `require` itself.
enum SandboxModules {
    /// Files in the order they are evaluated; `exportName`: the global variable the files define (crypto-js
    /// 3's components share `CryptoJS`), nil for a module that sets `module.exports` itself (UMD);
    /// `globalName`: the global postman-sandbox also gives it under.
    struct Module {
        var package: String
        /// Files, or JavaScript of our own when `package` is empty.
        var files: [String]
        var exportName: String?
        var globalName: String?
    }

    static let known: [String: Module] = [
        // Math.random's bits (JavaScriptCore has no crypto.getRandomValues here), formatted as RFC 9562 §5.4.
        "uuid": Module(package: "", files: ["""
            function v4() {
              return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, function (c) {
                var r = Math.random() * 16 | 0;
                return (c === 'x' ? r : (r & 0x3 | 0x8)).toString(16);
              });
            }
            v4.v4 = v4;
            module.exports = v4;
            """]),
        "lodash": Module(package: "libjs-lodash", files: ["/usr/share/javascript/lodash/lodash.min.js"], globalName: "_"),
        "moment": Module(package: "libjs-moment", files: ["/usr/share/javascript/moment/moment.min.js"]),
        // crypto-js's own index.js order (each component needs the ones before it).
        "crypto-js": Module(package: "libjs-cryptojs", files: [
            "core", "x64-core", "lib-typedarrays", "enc-utf16", "enc-base64", "md5", "sha1", "sha256", "sha224", "sha512",
            "sha384", "sha3", "ripemd160", "hmac", "pbkdf2", "evpkdf", "cipher-core", "mode-cfb", "mode-ctr",
            "mode-ctr-gladman", "mode-ofb", "mode-ecb", "pad-ansix923", "pad-iso10126", "pad-iso97971", "pad-zeropadding",
            "pad-nopadding", "format-hex", "aes", "tripledes", "rc4", "rabbit", "rabbit-legacy",
        ].map { "/usr/share/javascript/cryptojs/components/\($0)-min.js" }, exportName: "CryptoJS", globalName: "CryptoJS"),
    ]

    /// The known modules `source` asks for.
    static func requested(in source: String) -> [String] {
        guard source.contains("require") || source.contains("_.") || source.contains("CryptoJS") else { return [] }
        return known.keys.sorted().filter { name in
            if source.contains("require('\(name)')") || source.contains("require(\"\(name)\")") { return true }
            guard let global = known[name]!.globalName, source.contains(global + ".") else { return false }
            return source.range(of: "(^|[^A-Za-z0-9_$.])" + NSRegularExpression.escapedPattern(for: global) + "\\.",
                                options: .regularExpression) != nil
        }
    }

    /// `__reqrun.define(NAME, function (module, exports) { FILES })`, or why it cannot be made.
    static func definition(_ name: String) -> Result<String, SandboxError> {
        guard let module = known[name] else { return .failure(.unavailable("unknown module '\(name)'")) }
        var body = ""
        for file in module.files {
            if module.package.isEmpty {
                body += file
                continue
            }
            guard let bytes = FileManager.default.contents(atPath: file) else {
                return .failure(.unavailable("cannot read \(file): require('\(name)') needs Debian's \(module.package)"))
            }
            body += String(decoding: bytes, as: UTF8.self) + "\n;\n"
        }
        if let exportName = module.exportName { body += "module.exports = \(exportName);\n" }
        let global = module.globalName.map { ", \"\($0)\"" } ?? ""
        return .success("__reqrun.define(\"\(name)\", function (module, exports) {\n\(body)}\(global));")
    }
}
