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
    /// What the request's pre-request scripts wrote with `console.*`, when they ran.
    public var console: [String]?

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
    /// - Parameter scripting: runs the requests' pre-request scripts first, as a run does (what they set is
    ///   there for the next requests; test scripts, which need a response, do not run); nil: none run.
    public static func plan(_ references: [RequestReference], configuration: RunConfiguration,
                            scripting: RequestScripting? = nil) -> [DryRunEntry] {
        var planner = Planner(configuration: configuration, scripting: scripting)
        return references.map { planner.entry(for: $0) }
    }

    /// Plans one request at a time, in list order, so that `run --dry-run` can print each entry as it is made
    /// and keep none (what carries from one request to the next: the variables that pre-request scripts set,
    /// and which literal `{{…}}` warnings were already given).
    public struct Planner {
        let configuration: RunConfiguration
        let scripting: RequestScripting?
        let captured = VariableLayer.captures()
        var scriptVariables = ScriptVariables()
        var literalsWarned: Set<String> = []
        /// The file layers of the last request's group, by its id (unique in a workspace, as the run's
        /// `fileLayerCache` has it): the requests of one group share them, and making them builds a dictionary
        /// per layer.
        var lastLayers: (group: UUID, layers: [VariableLayer])?
        /// Without scripts, which may set variables before any request, the scope and its secret values are the
        /// same for every request of a group: made once for the group (by its id), as `lastLayers`.
        var lastScope: (group: UUID, scope: VariableScope, secrets: [String])?
        /// The masker of the last entry and the secrets it masks: most entries have the secrets of the one
        /// before, and a masker spells each secret in some twenty ways when it is made.
        var lastMasker: (secrets: [String], masker: SecretMasker)?
        /// Whether `plan` leaves a request that sends a `{{…}}` as its text (Newman's rules) to a planner that plans
        /// in list order (`Plan.deferred`): which names were already warned of (`literalsWarned`) is known only there.
        /// Set for the planners of chunks planned out of order (`writeJSON(_:threads:chunkSize:to:)`).
        var defersLiteralWarnings = false
        /// The bytes of the entries that the requests of the last group share (`DryRunFragments`), for `writeJSON`.
        var fragments = DryRunFragments()

        public init(configuration: RunConfiguration, scripting: RequestScripting? = nil) {
            self.configuration = configuration
            self.scripting = scripting
        }

        mutating func masker(_ secrets: [String]) -> SecretMasker {
            // Compared in place: `if let last = lastMasker` copied the tuple (callgrind: 140 instructions a request).
            if lastMasker?.secrets == secrets { return lastMasker!.masker }
            let masker = SecretMasker(values: secrets, enabled: !configuration.showSecrets)
            lastMasker = (secrets, masker)
            return masker
        }

        mutating func fileLayers(_ reference: RequestReference) -> [VariableLayer] {
            let group = reference.groups.last!.id
            if let last = lastLayers, last.group == group { return last.layers }
            let layers = Runner.fileLayers(reference)
            lastLayers = (group, layers)
            return layers
        }

        /// The entry of the next request in list order.
        public mutating func entry(for reference: RequestReference) -> DryRunEntry {
            switch plan(reference, allowingPrepared: false) {
            case .entry(let entry): return entry
            case .prepared(let prepared, let name, let method, let userAgent):
                return DryRunEntry(reference, name: name, method: method, prepared, userAgent: userAgent)
            case .deferred:
                preconditionFailure("entry(for:) is asked of a planner that plans in list order")
            }
        }

        /// Without scripts, the scope of `reference`'s group (`layers` its file layers) and its secret values: made
        /// once for the group (`lastScope`).
        mutating func groupScope(_ reference: RequestReference, _ layers: [VariableLayer]) -> (VariableScope, [String]) {
            // The group compared in place: `if let last = lastScope` copied the tuple (its scope and secrets) first.
            if lastScope?.group == reference.groups.last!.id { return (lastScope!.scope, lastScope!.secrets) }
            // Without scripts nothing changes a scope during a dry run (nothing is sent, captured or run): the
            // group's requests reuse the values of its plain references (`cachingPlainReferences`).
            let scope = Runner.scope(fileLayers: layers, configuration, captured: captured, scripts: nil,
                                     collectionKey: reference.collectionIndex).cachingPlainReferences()
            let secrets = scope.secretValues() + configuration.options.clientCertificatePassphrases
            lastScope = (reference.groups.last!.id, scope, secrets)
            return (scope, secrets)
        }

        /// What the next request in list order comes to: its entry, or, with `allowingPrepared`, when the entry
        /// would be the prepared request as it is (no script output, no `{{…}}` sent as text, nothing masked, no
        /// credential field), the prepared request, which `writeJSON` writes without making the entry.
        mutating func plan(_ reference: RequestReference, allowingPrepared: Bool) -> Plan {
            let layers = fileLayers(reference)
            // Read through `self`: `let configuration = configuration` copied the whole run configuration (and
            // destroyed the copy) for every request (callgrind: `RunConfiguration`'s outlined copy, 950
            // instructions a request).
            func currentScope() -> VariableScope {
                Runner.scope(fileLayers: layers, configuration, captured: captured, scripts: scripting == nil ? nil : scriptVariables,
                             collectionKey: reference.collectionIndex)
            }
            var scope: VariableScope
            var secrets: [String]
            if scripting == nil {
                (scope, secrets) = groupScope(reference, layers)
            } else {
                scope = currentScope()
                secrets = scope.secretValues() + configuration.options.clientCertificatePassphrases
            }
            // Without scripting, the request's scripts are not looked at (a filtered array a request).
            if let scripting, case let preRequestScripts = reference.request.eventScripts.filter({ $0.event == .prerequest }),
               !preRequestScripts.isEmpty {
                var request = reference.request
                request.auth = reference.effectiveAuth  // what pm.request.auth reads (Runner.start)
                let outcome = scripting.preRequest(preRequestScripts, request: &request,
                                                   context: Runner.scriptContext(reference, configuration, captured: captured),
                                                   variables: &scriptVariables)
                scope = currentScope()
                secrets = scope.secretValues() + configuration.options.clientCertificatePassphrases
                return plan(reference, request, scope, secrets, scriptError: outcome.error,
                            skippedByScript: outcome.skipRequest && outcome.error == nil, console: outcome.console,
                            allowingPrepared: allowingPrepared)
            }
            // The request as the collection has it, not a copy (a copy retains each of its fields).
            return plan(reference, reference.request, scope, secrets, scriptError: nil, skippedByScript: false, console: [],
                        allowingPrepared: allowingPrepared)
        }

        /// `plan(_:allowingPrepared:)` once the pre-request scripts, if any, have run: `request` as they left it.
        private mutating func plan(_ reference: RequestReference, _ request: Request, _ scope: VariableScope, _ secrets: [String],
                                   scriptError: String?, skippedByScript: Bool, console: [String], allowingPrepared: Bool) -> Plan {
            var secrets = secrets, scriptError = scriptError
            func newEntry() -> DryRunEntry {
                var entry = DryRunEntry(index: reference.index, collection: reference.collectionName, groupPath: reference.groupPath,
                                        name: request.name, method: request.method, url: request.url)
                if !console.isEmpty { entry.console = console }
                return entry
            }
            if skippedByScript || scriptError != nil {
                var entry = newEntry()
                if skippedByScript {
                    entry.skipped = true
                    scriptError = "a pre-request script called pm.execution.skipRequest()"
                }
                entry.error = scriptError
                return .entry(entry.masked(masker(secrets)))
            }
            let auth = request.auth ?? reference.effectiveAuth
            let result = RequestPreparation.prepare(request, scope: scope, auth: auth, rules: configuration.requestRules(for: reference).applying(disableBodyPruning: request.disableBodyPruning, followOriginalHttpMethod: nil))
            // The `User-Agent` reqrun adds, unless the request sets one.
            func userAgent(_ prepared: PreparedRequest) -> HeaderField? {
                let value = configuration.options.userAgent
                return value.isEmpty || prepared.headers.contains(named: "user-agent") ? nil : HeaderField(name: "User-Agent", value: value)
            }
            var entry: DryRunEntry
            // Consumed: the prepared request is moved into the plan, not copied out of the result and destroyed with it.
            switch consume result {
            case .failure(let failure):
                entry = newEntry()
                secrets += Runner.secretsOfUnprepared(request, scope, auth: auth)
                entry.error = failure.description
                if failure.isSkip {
                    entry.skipped = true
                    entry.url = (try? scope.resolve(request.url, field: "url")) ?? request.url
                }
            case .success(let prepared):
                if defersLiteralWarnings, !prepared.literalReferences.isEmpty { return .deferred }
                // The group's secrets as they are when the request adds none (`secrets + []` was a new array a request).
                if allowingPrepared, console.isEmpty, prepared.literalReferences.isEmpty,
                   masker(prepared.secrets.isEmpty ? secrets : secrets + prepared.secrets).masksNothing,
                   !prepared.headers.contains(where: SecretMasker.isSensitive) {
                    return .prepared(prepared, name: request.name, method: request.method, userAgent: userAgent(prepared))
                }
                secrets += prepared.secrets
                entry = DryRunEntry(reference, name: request.name, method: request.method, prepared, userAgent: userAgent(prepared))
                if !console.isEmpty { entry.console = console }
                for name in prepared.literalReferences where literalsWarned.insert(name).inserted {
                    entry.console = (entry.console ?? []) + [RequestRules.literalWarning(name)]
                }
            }
            return .entry(entry.masked(masker(secrets)))
        }
    }

    /// A planned request: its entry, or the prepared request that is its entry unchanged (`Planner.plan`),
    /// with the name and method of the request it was prepared from and the `User-Agent` field reqrun adds (nil: none
    /// added); or, for a planner that `defersLiteralWarnings`, none: the request sends a `{{…}}` as its text and is to be
    /// planned in list order.
    enum Plan {
        case entry(DryRunEntry)
        case prepared(PreparedRequest, name: String, method: String, userAgent: HeaderField?)
        case deferred
    }

    private func masked(_ masker: SecretMasker) -> DryRunEntry {
        // Without a secret to mask (the common case) and no credential field, the entry as it is, not a copy.
        if masker.masksNothing, !(headers ?? []).contains(where: SecretMasker.isSensitive) { return self }
        var copy = self
        // As in a run's results: a request without a name is named by its URL as written.
        copy.name = masker.mask(name)
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
        copy.console = console?.map(masker.mask)
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

extension DryRunEntry {
    /// The entry of a request prepared as it is (`Plan.prepared`).
    init(_ reference: RequestReference, name: String, method: String, _ prepared: PreparedRequest, userAgent: HeaderField?) {
        self.init(index: reference.index, collection: reference.collectionName, groupPath: reference.groupPath,
                  name: name, method: method, url: prepared.url)
        headers = prepared.headers + (userAgent.map { [$0] } ?? [])
        body = prepared.body.map(Body.init)
        transferAuth = prepared.transferAuth.map(Self.transferAuthText)
    }

    /// How an auth that libcurl computes while sending is shown.
    static func transferAuthText(_ auth: TransferAuth) -> String {
        switch auth {
        case .digest(let username, _): return "digest as '\(username)', answered by libcurl to the server's challenge"
        case .awsSigV4(let accessKey, _, let region, let service):
            return "AWS Signature Version 4 (\(accessKey), \(region), \(service)), computed by libcurl"
        case .ntlm(let username, _): return "NTLM as '\(username)', negotiated by libcurl with the server"
        }
    }
}
