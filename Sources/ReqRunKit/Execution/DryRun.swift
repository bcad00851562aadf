import Foundation

/// What `reqrun run --dry-run` shows for one selected request: exactly what the executor would send
/// (`RequestPreparation.prepare` with the run's variable scope and the request's effective auth), or why it
/// would not be sent. Nothing is sent and nothing is recorded.
public struct DryRunEntry: Codable, Sendable, Equatable {
    /// Position in list order across the workspace (as in `list --json` and run records).
    public var index: Int
    public var collection: String
    public var groupPath: [String]
    public var name: String
    public var method: String
    /// The URL as it would be sent; the template when it cannot be resolved.
    public var url: String
    /// Header fields as reqrun passes them to libcurl, with the `User-Agent` it adds; libcurl adds `Host`,
    /// `Accept: */*` and `Content-Length` itself.
    public var headers: [HeaderField]?
    public var body: Body?
    /// Auth that libcurl computes while sending (`digest`, `awsv4`), which no header can show beforehand.
    public var transferAuth: String?
    /// Why the request would not be sent (undefined variable…); `skipped` for a scheme reqrun does not send.
    public var error: String?
    public var skipped: Bool?

    /// The content: `text` when it is valid UTF-8, else `base64`; `file` for a file streamed from disk;
    /// `parts` for multipart content (libcurl writes the boundary).
    public struct Body: Codable, Sendable, Equatable {
        public var text: String?
        public var base64: String?
        public var file: String?
        public var parts: [Part]?
    }

    public struct Part: Codable, Sendable, Equatable {
        public var name: String
        public var value: String?
        public var file: String?
        public var contentType: String?
    }

    /// The plan for each reference, secrets masked as `****` unless `showSecrets`.
    public static func plan(_ references: [RequestReference], configuration: RunConfiguration) -> [DryRunEntry] {
        let captured = VariableLayer.captures()
        return references.map { reference in
            let scope = Runner.scope(for: reference, configuration, captured: captured)
            let request = reference.request
            var entry = DryRunEntry(index: reference.index, collection: reference.collectionName, groupPath: reference.groupPath,
                                    name: request.name, method: request.method, url: request.url)
            var secrets = scope.secretValues()
            switch RequestPreparation.prepare(request, scope: scope, auth: reference.effectiveAuth) {
            case .failure(let failure):
                secrets = Runner.secretsOfUnprepared(request, scope)
                entry.error = failure.description
                if failure.isSkip {
                    entry.skipped = true
                    entry.url = (try? scope.resolve(request.url, field: "url")) ?? request.url
                }
            case .success(let prepared):
                secrets += prepared.secrets
                entry.url = prepared.url
                var headers = prepared.headers
                let userAgent = configuration.options.userAgent
                if !userAgent.isEmpty, !headers.contains(named: "user-agent") {
                    headers.append(HeaderField(name: "User-Agent", value: userAgent))
                }
                entry.headers = headers
                entry.body = prepared.body.map(Body.init)
                switch prepared.transferAuth {
                case .digest(let username, _)?: entry.transferAuth = "digest as '\(username)', answered by libcurl to the server's challenge"
                case .awsSigV4(let accessKey, _, let region, let service)?:
                    entry.transferAuth = "AWS Signature Version 4 (\(accessKey), \(region), \(service)), computed by libcurl"
                case nil: break
                }
            }
            return entry.masked(SecretMasker(values: secrets, enabled: !configuration.showSecrets))
        }
    }

    private func masked(_ masker: SecretMasker) -> DryRunEntry {
        var copy = self
        copy.url = masker.mask(url)
        copy.headers = headers.map(masker.mask)
        copy.body?.text = body?.text.map(masker.mask)
        copy.body?.parts = body?.parts?.map { part in
            var part = part
            part.value = part.value.map(masker.mask)
            return part
        }
        copy.transferAuth = transferAuth.map(masker.mask)
        copy.error = error.map(masker.mask)
        return copy
    }
}

extension DryRunEntry.Body {
    init(_ body: PreparedBody) {
        switch body {
        case .bytes(let bytes):
            if let text = String(validating: bytes, as: UTF8.self) { self.init(text: text) } else { self.init(base64: Data(bytes).base64EncodedString()) }
        case .file(let path):
            self.init(file: path)
        case .multipart(let parts):
            self.init(parts: parts.map { part in
                switch part.content {
                case .text(let value): return DryRunEntry.Part(name: part.name, value: value, contentType: part.contentType)
                case .file(let path): return DryRunEntry.Part(name: part.name, file: path, contentType: part.contentType)
                }
            })
        }
    }
}
