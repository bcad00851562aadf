import Foundation

/// What a run uses besides the requests: variable sources, executor settings, masking.
public struct RunConfiguration: Sendable {
    public var selection: RunSelection
    /// The environment (`--env`, or the one saved with `reqrun env use`).
    public var environment: Environment?
    /// `--var NAME=VALUE` values.
    public var overrides: [String: String]
    /// Read only through `{{process.env.NAME}}`.
    public var processEnvironment: [String: String]
    public var options: ExecutorOptions
    /// `--show-secrets`: record and show secrets as they are.
    public var showSecrets: Bool
    /// Redirect handling (`--no-follow`, `--max-redirs`, `--location-trusted`); a request's own
    /// `followRedirects`/`maxRedirects` win.
    public var redirects: RedirectPolicy
    /// `--retry N`: how many times a request is sent again after a transport error or a 502, 503 or 504.
    public var retries: Int
    /// `--delay MS`: pause between requests, in milliseconds.
    public var delayMilliseconds: Int
    /// `--bail`: stop at the first request that fails; the rest are recorded as not run.
    public var bail: Bool

    public init(selection: RunSelection, environment: Environment? = nil, overrides: [String: String] = [:],
                processEnvironment: [String: String] = [:], options: ExecutorOptions = ExecutorOptions(), showSecrets: Bool = false,
                redirects: RedirectPolicy = RedirectPolicy(), retries: Int = 0, delayMilliseconds: Int = 0, bail: Bool = false) {
        self.redirects = redirects
        self.retries = retries
        self.delayMilliseconds = delayMilliseconds
        self.bail = bail
        self.selection = selection
        self.environment = environment
        self.overrides = overrides
        self.processEnvironment = processEnvironment
        self.options = options
        self.showSecrets = showSecrets
    }
}

/// Runs a selection of requests in list order and builds the run record.
///
/// For each request: resolve its variables (collection, groups, environment, `--var`, earlier captures),
/// send it, check its expectations, take its captures. One failure does not stop the run. Requests run one
/// after another, so a capture is always ready for the requests after it; a later `--parallel` must keep
/// that: a request that refers to a captured variable waits for the request that captures it.
public enum Runner {
    /// - Parameter onResult: called after each request, in order, with the masked result.
    /// - Returns: the run record, secrets masked unless `showSecrets` (not yet saved: see `RunStore.save`).
    public static func run(_ references: [RequestReference], configuration: RunConfiguration, workspace: Workspace,
                           onResult: (RequestResult) -> Void = { _ in }) -> RunRecord {
        let started = Date()
        var results: [RequestResult] = []
        var captured = VariableLayer(source: "capture", values: [:])
        // Created lazily: a selection whose requests are all skipped never initialises libcurl.
        var executor: HTTPExecutor?
        var stoppedBy: RequestResult?
        for (position, reference) in references.enumerated() {
            let stopReason = Interruption.requested ? "not run: the run was interrupted (Ctrl-C)"
                : stoppedBy.map { "not run: --bail stopped the run at request \($0.index) (\($0.name))" }
            if let stopReason {
                let result = RequestResult(index: reference.index, collection: reference.collectionName, groupPath: reference.groupPath,
                                           groupID: reference.groups.last!.id.uuidString.lowercased(), name: reference.request.name,
                                           method: reference.request.method, url: reference.request.url, outcome: .notRun,
                                           error: ResultError(message: stopReason))
                results.append(result)
                onResult(result)
                continue
            }
            if position > 0, configuration.delayMilliseconds > 0 {
                Thread.sleep(forTimeInterval: Double(configuration.delayMilliseconds) / 1000)
            }
            let scope = scope(for: reference, configuration, captured: captured)
            var credentials: [String] = []
            let result = runOne(reference, scope: scope, configuration, runStart: started, executor: &executor,
                                captured: &captured, credentials: &credentials)
            let masker = SecretMasker(values: scope.secretValues() + credentials, enabled: !configuration.showSecrets)
            let masked = masker.mask(result)
            results.append(masked)
            onResult(masked)
            if configuration.bail, masked.isFailure { stoppedBy = masked }
        }
        executor?.close()
        return RunRecord(id: RunID.make(started), startedAt: RunID.iso8601(started), endedAt: RunID.iso8601(Date()),
                         reqrunVersion: reqrunVersion, libcurlVersion: executor == nil ? "" : HTTPExecutor.libcurlVersion,
                         workspace: workspace.root.path, environment: configuration.environment?.name,
                         selection: configuration.selection, results: results)
    }

    /// The variable layers for one request, lowest precedence first.
    public static func scope(for reference: RequestReference, _ configuration: RunConfiguration, captured: VariableLayer) -> VariableScope {
        var layers = [VariableLayer(source: "collection", values: dictionary(reference.collectionVariables))]
        for group in reference.groups where !group.variables.isEmpty {
            layers.append(VariableLayer(source: "group '\(group.name)'", values: dictionary(group.variables)))
        }
        if let environment = configuration.environment { layers.append(environment.layer) }
        layers.append(VariableLayer(source: "--var", values: configuration.overrides))
        layers.append(captured)
        return VariableScope(layers: layers, processEnvironment: configuration.processEnvironment)
    }

    private static func dictionary(_ variables: [Variable]) -> [String: String] {
        Dictionary(variables.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
    }

    private static func runOne(_ reference: RequestReference, scope: VariableScope, _ configuration: RunConfiguration, runStart: Date,
                               executor: inout HTTPExecutor?, captured: inout VariableLayer, credentials: inout [String]) -> RequestResult {
        let request = reference.request
        func result(url: String, outcome: RequestResult.Outcome, error: ResultError?, request sent: SentRequest? = nil,
                    transfer: TransferResult? = nil, startedAt: Date? = nil, expectations: [ExpectationResult] = [],
                    captures: [CaptureResult] = []) -> RequestResult {
            RequestResult(index: reference.index, collection: reference.collectionName, groupPath: reference.groupPath,
                          groupID: reference.groups.last!.id.uuidString.lowercased(), name: request.name,
                          method: request.method, url: url, outcome: outcome, error: error, request: sent,
                          response: transfer?.response, timings: transfer?.timings, startedAt: startedAt.map(RunID.iso8601),
                          startOffset: startedAt.map { Int(($0.timeIntervalSince(runStart) * 1_000_000).rounded()) },
                          expectations: expectations, captures: captures)
        }
        let prepared: PreparedRequest
        switch RequestPreparation.prepare(request, scope: scope, auth: reference.effectiveAuth) {
        case .failure(let failure):
            let url = (try? scope.resolve(request.url, field: "url")) ?? request.url
            return result(url: failure.isSkip ? url : request.url, outcome: failure.isSkip ? .skipped : .invalid,
                          error: ResultError(message: failure.description))
        case .success(let value):
            prepared = value
            credentials = value.secrets
        }
        let options = configuration.options
        if executor == nil { executor = HTTPExecutor(options: options) }
        let startedAt = Date()
        let needsBody = !request.captures.isEmpty || request.expectations.contains {
            switch $0.expectation {
            case .body, .json: return true
            default: return false
            }
        }
        var policy = configuration.redirects
        if let follow = request.followRedirects { policy.follow = follow }
        if let maximum = request.maxRedirects { policy.maximum = maximum }
        var attempts = 1
        var followed = RedirectFollower.send(prepared, policy: policy, executor: executor!, inspectBody: needsBody)
        while attempts <= configuration.retries, RetryPolicy.shouldRetry(followed.transfer) {
            Thread.sleep(forTimeInterval: RetryPolicy.delay(attempt: attempts, after: followed.transfer))
            attempts += 1
            followed = RedirectFollower.send(prepared, policy: policy, executor: executor!, inspectBody: needsBody)
        }
        let transfer = followed.transfer
        let sent = SentRequest(headers: transfer.sentHeaders, bodySize: transfer.uploadedBytes,
                               body: followed.lastRequest.body?.bytes.map {
                                   RecordedBody(prefix: Array($0.prefix(options.bodyLimit)), truncated: $0.count > options.bodyLimit)
                               })
        func finish(_ result: RequestResult) -> RequestResult {
            var result = result
            result.redirects = followed.hops
            result.attempts = attempts
            return result
        }
        if let reason = followed.stopReason {
            return finish(result(url: prepared.url, outcome: .transportError, error: ResultError(message: reason),
                                 request: sent, transfer: transfer, startedAt: startedAt))
        }
        guard let response = transfer.response else {
            return finish(result(url: prepared.url, outcome: .transportError, error: transfer.error, request: sent,
                                 transfer: transfer, startedAt: startedAt))
        }
        let view = ResponseView(status: response.status, headers: response.headers, body: transfer.body,
                                bodySize: response.bodySize, totalMicroseconds: transfer.timings.total)
        let expectations = request.expectations.map { ExpectationCheck.check($0, view, scope: scope) }
        let captures = request.captures.map { CaptureCheck.evaluate($0, view) }
        for capture in captures { if let value = capture.value { captured.values[capture.variable] = value } }
        return finish(result(url: prepared.url, outcome: .response, error: nil, request: sent, transfer: transfer,
                             startedAt: startedAt, expectations: expectations, captures: captures))
    }
}
