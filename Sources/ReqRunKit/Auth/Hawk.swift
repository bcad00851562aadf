import Foundation

/// Hawk request authentication (the Hawk 1 scheme of hueniverse/hawk, as Postman's `hawk` auth sends it):
/// `Authorization: Hawk id="…", ts="…", nonce="…", hash="…", ext="…", mac="…", app="…", dlg="…"`.
/// Every string is a template.
public struct HawkAuth: Sendable, Equatable {
    /// The MAC and payload-hash function: `sha256` (Hawk's default) or `sha1`.
    public enum Algorithm: String, Sendable, CaseIterable {
        case sha256, sha1
        var hash: Signing.HashAlgorithm { self == .sha1 ? .sha1 : .sha256 }
    }

    /// The key identifier (`id`) and the shared key.
    public var id: String
    public var key: String
    public var algorithm: Algorithm
    /// A fixed `nonce`; empty: six random letters and digits for each request (as Postman).
    public var nonce: String
    /// A fixed `ts` (seconds since 1970); empty: the time of sending.
    public var timestamp: String
    /// Application data (`ext`), the application id (`app`) and the delegating application (`dlg`); empty: none.
    public var ext: String
    public var app: String
    public var dlg: String
    /// Adds the payload `hash` (over the content type and the content).
    public var includePayloadHash: Bool

    public init(id: String, key: String, algorithm: Algorithm = .sha256, nonce: String = "", timestamp: String = "", ext: String = "",
                app: String = "", dlg: String = "", includePayloadHash: Bool = false) {
        self.id = id
        self.key = key
        self.algorithm = algorithm
        self.nonce = nonce
        self.timestamp = timestamp
        self.ext = ext
        self.app = app
        self.dlg = dlg
        self.includePayloadHash = includePayloadHash
    }

    var templates: [String] { [id, key, nonce, timestamp, ext, app, dlg] }
}

/// Hawk 1's normalized strings and MAC (hawk's `lib/crypto.js`: `generateNormalizedString`,
/// `calculatePayloadHash`).
enum HawkSigner {
    /// `base64(H("hawk.1.payload\n" + type + "\n" + payload + "\n"))`, the type without parameters, lower case.
    static func payloadHash(_ algorithm: HawkAuth.Algorithm, contentType: String, payload: [UInt8]) -> String {
        let type = contentType.split(separator: ";", omittingEmptySubsequences: false).first.map(String.init)?
            .trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        let text = Array("hawk.1.payload\n\(type)\n".utf8) + payload + [UInt8(ascii: "\n")]
        return Data(Signing.digest(algorithm.hash, text)).base64EncodedString()
    }

    /// The normalized header string the MAC covers.
    static func normalized(ts: String, nonce: String, method: String, resource: String, host: String, port: Int, hash: String,
                           ext: String, app: String, dlg: String) -> String {
        var text = "hawk.1.header\n\(ts)\n\(nonce)\n\(method.uppercased())\n\(resource)\n\(host.lowercased())\n\(port)\n\(hash)\n"
        text += ext.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n") + "\n"
        if !app.isEmpty { text += app + "\n" + dlg + "\n" }
        return text
    }

    /// Adds the `Authorization` header to `prepared` (final URL and content) with `auth`'s resolved values,
    /// unless the request sets one itself. Returns the secrets it made (the MAC).
    static func sign(_ auth: HawkAuth, _ prepared: inout PreparedRequest) -> [String] {
        let target = RequestTarget(prepared.url)
        let ts = auth.timestamp.isEmpty ? String(Int(Date().timeIntervalSince1970)) : auth.timestamp
        let nonce = auth.nonce.isEmpty ? String(OAuth1Signer.randomNonce().prefix(6)) : auth.nonce
        var hash = ""
        if auth.includePayloadHash {
            let type = prepared.headers.last(where: { $0.hasName(in: ["content-type"]) })?.value ?? ""
            hash = payloadHash(auth.algorithm, contentType: type, payload: prepared.body?.bytes ?? OAuth1Signer.fileBytes(prepared))
        }
        let text = normalized(ts: ts, nonce: nonce, method: prepared.method, resource: target.pathAndQuery, host: target.host,
                              port: target.port, hash: hash, ext: auth.ext, app: auth.app, dlg: auth.dlg)
        let mac = Data(Signing.hmac(auth.algorithm.hash, key: Array(auth.key.utf8), message: Array(text.utf8))).base64EncodedString()
        func quoted(_ value: String) -> String {
            "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        var fields = ["id=" + quoted(auth.id), "ts=" + quoted(ts), "nonce=" + quoted(nonce)]
        if !hash.isEmpty { fields.append("hash=" + quoted(hash)) }
        if !auth.ext.isEmpty { fields.append("ext=" + quoted(auth.ext)) }
        fields.append("mac=" + quoted(mac))
        if !auth.app.isEmpty {
            fields.append("app=" + quoted(auth.app))
            if !auth.dlg.isEmpty { fields.append("dlg=" + quoted(auth.dlg)) }
        }
        if !prepared.headers.contains(named: "authorization") {
            prepared.headers.append(HeaderField(name: "Authorization", value: "Hawk " + fields.joined(separator: ", ")))
        }
        return [mac]
    }
}
