import Foundation

/// Runs a selection of requests and builds the run record.
///
/// For each request: resolve its variables (collection, groups, environment, `--var`, earlier captures),
/// send it (following redirects, retrying), check its expectations, take its captures. One failure does not
/// stop the run (unless `--bail`). Up to `parallel` requests are in flight at once on one libcurl multi
/// handle; a request that refers to a variable an earlier request captures waits until that request is done,
/// so captures behave as in a sequential run. Results are reported (`onResult`) and recorded in list order,
/// whatever order they finish in. With `parallel == 1` this is the plain sequential run.
public enum Runner {
    /// - Parameter onResult: called for each request in list order, as soon as it and every request before
    ///   it are done, with the masked result, soon after (`ResultPipeline`: while the run waits for the network,
    ///   or with `parallel` > 1 on a second thread).
    /// - Returns: the run record, secrets masked unless `showSecrets`, with its results when `keepResults`
    ///   (else none: they are in the record's file).
    /// - Parameters:
    ///   - scripting: runs the requests' Postman scripts (`Request.eventScripts`); nil: they are not run.
    ///   - store: where the record is written as the run goes (`RecordWriter`); nil: nowhere.
    ///   - keepResults: keep every result in memory for the caller (`CompletedRun.record.results`).
    public static func run(_ references: [RequestReference], configuration: RunConfiguration, workspace: Workspace,
                           scripting: RequestScripting? = nil, recordingIn store: RunStore? = nil, keepResults: Bool = true,
                           onResult: @escaping @Sendable (RequestResult) -> Void = { _ in }) -> CompletedRun {
        // Each iteration (`--iterations`, `--iteration-data`) runs the selection again: iteration i is positions
        // i × count ..< (i + 1) × count.
        let selection = references
        // With setNextRequest the requests are chosen as the run goes (`FlowControl`), one at a time.
        let flow = scripting != nil && FlowControl.isUsed(in: selection) ? FlowControl(selection: selection, iterations: configuration.runData.count) : nil
        var configuration = configuration
        if flow != nil { configuration.parallel = 1 }
        let references = flow.map { flow in RunSequence(flow.first.map { [flow.selection[$0.index]] } ?? [], repeats: 1) }
            ?? RunSequence(selection, repeats: configuration.runData.count)
        let started = Date()
        let header = RunRecord(id: RunID.make(started), startedAt: RunID.iso8601(started), endedAt: "", reqrunVersion: reqrunVersion,
                               libcurlVersion: "", workspace: workspace.root.path, environment: configuration.environment?.name,
                               selection: configuration.selection, results: [])
        // A record that cannot be made costs the record, not the run: the error comes with the run's end.
        let writer = store.map { store in Result { () throws(FileError) in try RecordWriter(store: store, header: header) } }
        let pipeline = ResultPipeline(expectedCount: references.count, showSecrets: configuration.showSecrets,
                                      inBackground: configuration.parallel > 1, writer: try? writer?.get(), keep: keepResults, onResult: onResult)
        var scheduler = Scheduler(references: references, configuration: configuration, pipeline: pipeline, scripting: scripting, flow: flow,
                                  runStart: started)
        scheduler.run()
        let captured = scheduler.captured
        // Secret variables whose values scripts changed are masked with their new values too.
        let secretNames = (configuration.environment?.layer.secretNames ?? []).union(configuration.runData.globals?.secretNames ?? [])
        let scriptSecrets = [scheduler.scriptVariables.globals, scheduler.scriptVariables.environment, scheduler.scriptVariables.local]
            .flatMap { values in secretNames.compactMap { values[$0] } }
        let lateSecrets = scheduler.runSecrets + captured.secretNames.compactMap { captured.values[$0] } + scriptSecrets
        let results = pipeline.finish(lateSecrets: lateSecrets)
        var record = header
        (record.endedAt, record.libcurlVersion) = (RunID.iso8601(Date()), scheduler.usedLibcurl ? HTTPExecutor.libcurlVersion : "")
        record.results = results
        record.summary = pipeline.writer?.summary ?? RunSummary(results)
        let file = writer.map { writer in
            Result { () throws -> URL in
                try writer.get().finish(endedAt: record.endedAt, libcurlVersion: record.libcurlVersion, lateSecrets: lateSecrets,
                                        showSecrets: configuration.showSecrets)
            }
        }
        let origins = pipeline.writer.map(\.captureOrigins) ?? CompletedRun.captureOrigins(results)
        return CompletedRun(record: record, file: file, scriptVariables: scheduler.scriptVariables,
                            capturedValues: CompletedRun.values(captured, credentials: Set(scheduler.runSecrets), run: record.id, origins: origins),
                            requestLimitReached: scheduler.limitReached ? scheduler.limitMessage : nil, cookies: scheduler.cookiesAtEnd)
    }

    /// The variable layers for one request, lowest precedence first.
    public static func scope(for reference: RequestReference, _ configuration: RunConfiguration, captured: VariableLayer) -> VariableScope {
        scope(fileLayers: fileLayers(reference), configuration, captured: captured)
    }

    /// The collection's and groups' layers of `reference` (what depends only on where it is written).
    static func fileLayers(_ reference: RequestReference) -> [VariableLayer] {
        var layers = [VariableLayer(source: "collection", values: dictionary(reference.collectionVariables))]
        for group in reference.groups where !group.variables.isEmpty {
            layers.append(VariableLayer(source: "group '\(group.name)'", values: dictionary(group.variables)))
        }
        return layers
    }

    static func scope(fileLayers: [VariableLayer], _ configuration: RunConfiguration, captured: VariableLayer) -> VariableScope {
        var layers = fileLayers
        if let environment = configuration.environment { layers.append(environment.layer) }
        layers.append(VariableLayer(source: "--var", values: configuration.overrides))
        if let carried = configuration.carriedCaptures { layers.append(carried) }
        layers.append(captured)
        return VariableScope(layers: layers, processEnvironment: configuration.processEnvironment)
    }

    /// The secrets of a request that could not be prepared (`RequestPreparation.prepare` failed): the scope's,
    /// and the user information of its URL as written and as resolved, since the URL is shown as written and
    /// a message may quote it (an invalid port); and the credentials of `auth` that resolve (a token a
    /// pre-request script put there is a secret even when the request is not sent). The run, `--dry-run` and
    /// `show --curl` mask with these.
    public static func secretsOfUnprepared(_ request: Request, _ scope: VariableScope, auth: Auth? = nil) -> [String] {
        let resolved = (try? scope.resolve(request.url, field: "url")) ?? request.url
        let credentials = (auth?.secretTemplates ?? []).compactMap { try? scope.resolve($0, field: "auth") }.filter { !$0.isEmpty }
        return scope.secretValues() + CredentialSecrets.inURL(resolved) + CredentialSecrets.inURL(request.url) + credentials
    }

    private static func dictionary(_ variables: [Variable]) -> [String: String] {
        Dictionary(variables.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
    }

    /// Which earlier requests each request waits for: those that capture a variable it refers to, directly
    /// or through the values of collection, group, environment or `--var` variables; a request that captures
    /// a variable also waits for the earlier ones that refer to or capture it (not with `runAlone` false), so
    /// that its value replaces none they were still to send. A request that captures
    /// a cookie runs alone: it waits for every earlier request, and every later one waits for it. Its cookie
    /// is in the run's jar as soon as its response arrives, so a request in flight meanwhile could carry a
    /// credential not yet known as one (and not masked), or miss it by chance. A request with Postman scripts
    /// runs alone the same way (`lastCookieCapture` then stands for it too): a script may set any variable.
    /// - Parameter runAlone: false: only the waits for captured variables (what `ShardPartition` must keep in
    ///   one part), not the cookie and script rules above.
    static func dependencies(_ references: [RequestReference], _ configuration: RunConfiguration,
                             runAlone: Bool = true) -> [Set<Int>] {
        let rules = RunDependencies(references, repeats: 1, configuration, runAlone: runAlone)
        return references.indices.map { rules.positions(before: $0) }
    }
}

/// A finished run: its record (with its results when they were kept) and the record's file.
public struct CompletedRun: Sendable {
    public var record: RunRecord
    /// The record's file, or why it could not be written (the requests were sent all the same); nil when the
    /// run was not recorded.
    public var file: Result<URL, any Error>?
    /// What the run's scripts set, for `--export-environment` and `--export-globals`.
    public var scriptVariables = ScriptVariables()
    /// The run's captured values as captured (not masked), for `CaptureStore`.
    public var capturedValues: [CapturedValue] = []
    /// Set when `--max-requests` kept a request from being sent: the message (the run then exits 3).
    public var requestLimitReached: String?
    /// With `ExecutorOptions.keepsCookieStore`: the run's cookie store at its end, for a Newman cookie jar.
    public var cookies: [StoredCookie]?
}

/// One request on its way: prepared, possibly redirected or retried.
private struct Job {
    var scope: VariableScope
    var prepared: PreparedRequest
    var current: PreparedRequest
    var hops: [RedirectHop] = []
    /// `Set-Cookie` fields of the redirects followed.
    var redirectSetCookies: [String] = []
    var attempts = 1
    /// Failed attempts of a polled request (`PollPolicy`), each sent again.
    var polls: [PollAttempt] = []
    /// The result of the last failed attempt of a polled request: what it ends with when the run is stopped
    /// during the wait.
    var lastAttempt: RequestResult?
    var startedAt: Date
    var needsBody: Bool
    var policy: RedirectPolicy
    /// The request as its pre-request scripts left it, and what they did.
    var request: Request
    var preRequest = ScriptOutcome()
}

/// The run loop: starts requests whose dependencies are done, up to `parallel` at a time, and finishes
/// them as their transfers complete.
private struct Scheduler {
    /// Grows as the run goes with `setNextRequest` (`flow`).
    var references: RunSequence
    let configuration: RunConfiguration
    /// What each position waits for, computed from the position (not kept per position).
    let dependencies: RunDependencies
    /// Whether any request captures a variable (then results are finished before the next request starts).
    let hasCaptures: Bool
    /// Whether any request may be sent again until it passes (its result is only known after `finish`).
    let hasPolls: Bool
    /// Whether any request checks the server's certificate (`ExecutorOptions.certificateInfo`), found once over
    /// the selection (with setNextRequest, every request the run may add). Looked for at each script's
    /// `scriptTransport` instead, it went through the whole run (a copy of each request) per scripted request.
    let readsCertificate: Bool
    let runStart: Date
    let pipeline: ResultPipeline
    /// Finished results, not yet masked, with the secret values to mask in them, until `report` moves them
    /// on to the pipeline in list order (positions before `reported`): a reorder buffer as deep as the results
    /// that finished before an earlier one, not an array of the whole run (a result takes about 550 bytes).
    var results: [Int: RequestResult] = [:]
    var secrets: [Int: [String]] = [:]
    var captured = VariableLayer.captures()
    /// Every value that reached a credential so far (auth fields, credential header fields as sent, URL user
    /// information, captured cookies), in the order learned: secrets for the rest of the run, and masked again
    /// in every result at its end (a token captured by one request and sent as a credential by a later one
    /// is masked in the capturing result too).
    var runSecrets: [String] = []
    private var runSecretSet: Set<String> = []
    /// Variables whose latest capture in this run took no value (no response, nothing found), with the
    /// capturing request's path: named in the error of a later request that finds the variable undefined,
    /// which otherwise reads as if nothing captured it.
    private var missedCaptures: [String: String] = [:]
    /// Undefined names already said to be sent as literal text (`--compat newman`): one warning per name.
    private var literalsWarned: Set<String> = []
    var jobs: [Int: Job] = [:]
    /// The WebSocket requests among `jobs`, each running on its own thread.
    var webSockets: [Int: WebSocketJob] = [:]
    /// When each job waiting to be sent again (`--retry`) is due, by position. Kept apart from `jobs` so
    /// that each wait looks at these few rather than copying every job in flight (perf showed the copies).
    var retryAt: [Int: ContinuousClock.Instant] = [:]
    var notStarted: PendingPositions
    var reported = 0
    var stoppedBy: RequestResult?
    var executor: HTTPExecutor?
    var usedLibcurl = false
    /// With `ExecutorOptions.keepsCookieStore`: the run's cookies at its end.
    var cookiesAtEnd: [StoredCookie]?
    var lastStart: Date?
    /// The group path and the innermost group's id as text of each selection entry, for its results: made once,
    /// not for every result (`groupPath` maps the groups, the id is formatted: together about 800 instructions).
    var groupTexts: [(path: [String], id: String)?] = []
    /// File layers by the id of the request's innermost group (ids are unique in a workspace): built once per group.
    var fileLayerCache: [UUID: [VariableLayer]] = [:]
    let scripting: RequestScripting?
    /// What scripts have set so far.
    var scriptVariables = ScriptVariables()
    /// OAuth 2.0 tokens requested in this run (one token request for all the requests with the same parameters).
    let oauth2Tokens: OAuth2TokenCache

    init(references: RunSequence, configuration: RunConfiguration, pipeline: ResultPipeline, scripting: RequestScripting?,
         flow: FlowControl?, runStart: Date) {
        self.runStart = runStart
        self.scripting = scripting
        self.flow = flow
        self.oauth2Tokens = OAuth2TokenCache(options: configuration.options)
        self.steps = flow?.first.map { [$0] } ?? []
        let bound = configuration.maxRequests ?? (flow != nil ? RunConfiguration.defaultMaxRequests : 0)
        self.maxRequests = bound > 0 ? bound : nil
        self.references = references
        self.configuration = configuration
        self.pipeline = pipeline
        self.dependencies = RunDependencies(references.selection, repeats: references.repeats, configuration)
        self.hasCaptures = flow != nil || references.selection.contains { !$0.request.capturesIncludingMessages.isEmpty || (scripting != nil && !$0.request.eventScripts.isEmpty) }
        self.hasPolls = configuration.poll != nil || references.selection.contains { $0.request.poll != nil }
        self.notStarted = PendingPositions(references.indices)
        self.groupTexts = Array(repeating: nil, count: references.selection.count)
        self.perIteration = max(1, references.count / configuration.runData.count)
        self.readsCertificate = (flow?.selection ?? references.selection).contains(where: \.request.readsCertificate)
        // Client certificate passphrases reach a credential in every TLS handshake: secrets from the start.
        learnSecrets(configuration.options.clientCertificatePassphrases)
    }

    /// Requests in an iteration: position p is in iteration p / perIteration (with `setNextRequest`, `steps` say).
    let perIteration: Int
    /// With `setNextRequest`: where each position is in the selection, and what its scripts asked.
    let flow: FlowControl?
    var steps: [FlowControl.Step]
    var nextRequests: [Int: NextRequest] = [:]
    /// `--max-requests` (default `RunConfiguration.defaultMaxRequests` with `setNextRequest`): requests sent so
    /// far, and whether one was kept from being sent.
    let maxRequests: Int?
    var sent = 0
    var limitReached = false

    /// The iteration (from 0) of the request at `position`.
    func iteration(_ position: Int) -> Int { flow != nil ? steps[position].iteration : position / perIteration }

    var limitMessage: String {
        "--max-requests \(maxRequests ?? 0) reached: \(sent) requests were sent\(flow != nil ? " (a setNextRequest loop?)" : "")"
    }

    mutating func run() {
        while reported < references.count {
            startReady()
            report()
            guard !jobs.isEmpty else {
                if notStarted.isEmpty { break }
                continue
            }
            wait()
            report()
        }
        executor?.close()
        // A run that sent nothing leaves the jar it was given as it was.
        if configuration.options.keepsCookieStore { cookiesAtEnd = executor?.cookiesAtClose ?? configuration.options.initialCookies }
    }

    /// Starts requests in list order whose captured variables are ready, while there is room; after a
    /// `--bail` failure or Ctrl-C, the rest are recorded as not run.
    private mutating func startReady() {
        var index = 0
        while index < notStarted.count && jobs.count < configuration.parallel {
            let position = notStarted[index]
            if let reason = stopReason {
                notStarted.remove(at: index)
                results[position] = notRun(position, reason)
                if maxRequests.map({ sent >= $0 }) ?? false { limitReached = true }
                continue
            }
            guard dependencies.allSatisfy(position, from: reported, { results[$0] != nil }) else {
                // One at a time, requests go strictly in list order: the next waits rather than being passed.
                if configuration.parallel == 1 || dependencies.holdsBackLater(position) { break }
                index += 1
                continue
            }
            notStarted.remove(at: index)
            if configuration.parallel == 1, configuration.delayMilliseconds > 0, let lastStart {
                // Slept in short steps so Ctrl-C or SIGTERM stops the run during the pause too.
                let until = lastStart.addingTimeInterval(Double(configuration.delayMilliseconds) / 1000)
                while Date() < until, !Interruption.requested { Thread.sleep(forTimeInterval: min(0.05, until.timeIntervalSinceNow)) }
                if Interruption.requested {
                    notStarted.insert(position, at: index)
                    continue
                }
            }
            if configuration.pauseMilliseconds > 0 {
                // --pause: a wait before every request, in short steps so Ctrl-C stops it.
                let until = Date().addingTimeInterval(Double(configuration.pauseMilliseconds) / 1000)
                while Date() < until, !Interruption.requested { Thread.sleep(forTimeInterval: min(0.05, max(0, until.timeIntervalSinceNow))) }
                if Interruption.requested {
                    notStarted.insert(position, at: index)
                    continue
                }
            }
            lastStart = Date()
            start(position)
        }
        if let reason = stopReason {
            for position in notStarted { results[position] = notRun(position, reason) }
            if !notStarted.isEmpty, maxRequests.map({ sent >= $0 }) ?? false { limitReached = true }
            notStarted = []
        }
    }

    private var stopReason: String? {
        if Interruption.requested { return "not run: the run was \(Interruption.reason)" }
        if let maxRequests, sent >= maxRequests { return "not run: " + limitMessage }
        return stoppedBy.map { "not run: --bail stopped the run at request #\($0.index) (\($0.name))" }
    }

    /// The group path and group id text of the request at `position` (`groupTexts`).
    private mutating func groupText(_ position: Int) -> (path: [String], id: String) {
        let index = references.selectionIndex(position)
        if let index, let known = groupTexts[index] { return known }
        let reference = references[position]
        let made = (reference.groupPath, reference.groups.last!.id.lowercasedText)
        if let index { groupTexts[index] = made }
        return made
    }

    private mutating func notRun(_ position: Int, _ reason: String) -> RequestResult {
        let reference = references[position]
        let (groupPath, groupID) = groupText(position)
        return RequestResult(index: reference.index, collection: reference.collectionName, groupPath: groupPath,
                             groupID: groupID, name: reference.request.name,
                             method: reference.request.method, url: reference.request.url, outcome: .notRun,
                             error: ResultError(message: reason))
            .inIteration(configuration.runData.isIterated ? iteration(position) : nil)
    }

    private mutating func baseResult(_ position: Int, url: String, outcome: RequestResult.Outcome, error: ResultError?) -> RequestResult {
        let (groupPath, groupID) = groupText(position)
        let reference = references[position]
        return RequestResult(index: reference.index, collection: reference.collectionName, groupPath: groupPath,
                             groupID: groupID, name: reference.request.name,
                             method: reference.request.method, url: url, outcome: outcome, error: error)
            .inIteration(configuration.runData.isIterated ? iteration(position) : nil)
    }

    /// Prepares the request; a request that cannot be prepared is finished at once.
    private mutating func start(_ position: Int) {
        let reference = references[position]
        var request = reference.request
        let key = reference.groups.last!.id
        let layers = fileLayerCache[key] ?? Runner.fileLayers(reference)
        fileLayerCache[key] = layers
        var scope = scope(position, fileLayers: layers)
        var preRequest = ScriptOutcome()
        let preRequestScripts = scripting == nil ? [] : request.eventScripts.filter { $0.event == .prerequest }
        // Scripts see the auth that applies as the request's (`pm.request.auth`); a pre-request script may change it.
        if scripting != nil, !request.eventScripts.isEmpty { request.auth = reference.effectiveAuth }
        if let scripting, !preRequestScripts.isEmpty {
            let transport = scriptTransport(host: (try? scope.resolve(request.url, field: "url")) ?? request.url)
            preRequest = scripting.preRequest(preRequestScripts, request: &request, context: scriptContext(position, scope, transport),
                                              variables: &scriptVariables)
            preRequest.requests = adopt(transport)
            learnScriptSecrets(scope)
            if let next = preRequest.nextRequest { nextRequests[position] = next }
            scope = self.scope(position, fileLayers: layers)
            if preRequest.error != nil || preRequest.skipRequest {
                let message = preRequest.error ?? "a pre-request script called pm.execution.skipRequest()"
                var result = baseResult(position, url: (try? scope.resolve(request.url, field: "url")) ?? request.url,
                                        outcome: preRequest.error != nil ? .scriptError : .skipped, error: ResultError(message: message))
                Self.record(preRequest, in: &result)
                complete(position, result, secrets: scope.secretValues())
                return
            }
        }
        // Its collection's rules (else the run's), with the request's own disableBodyPruning (Postman's
        // protocolProfileBehavior) over them; its followOriginalMethod goes into the redirect policy below.
        let rules = configuration.requestRules(for: reference).applying(disableBodyPruning: request.disableBodyPruning, followOriginalHttpMethod: nil)
        let prepared = RequestPreparation.prepare(request, scope: scope, auth: request.auth ?? reference.effectiveAuth, rules: rules, tokens: oauth2Tokens)
        learnSecrets(oauth2Tokens.secrets)
        // What reached the auth after a pre-request script (a value it put there, a variable it set that the auth
        // uses) is a secret like the files' credentials.
        if !preRequestScripts.isEmpty, case .success(let sent) = prepared {
            learnScriptSecrets(scope, credentials: sent.secrets)
        }
        switch prepared {
        case .failure(let failure):
            let resolved = (try? scope.resolve(request.url, field: "url")) ?? request.url
            let url = failure.isSkip ? resolved : request.url
            var result = baseResult(position, url: url, outcome: failure.isSkip ? .skipped : .invalid,
                                    error: ResultError(message: failure.description + missedCaptureNote(failure)))
            Self.record(preRequest, in: &result)
            complete(position, result, secrets: Runner.secretsOfUnprepared(request, scope, auth: request.auth ?? reference.effectiveAuth))
        case .success(let prepared) where prepared.isWebSocket:
            learnSecrets(prepared.secrets)
            usedLibcurl = true
            jobs[position] = Job(scope: scope, prepared: prepared, current: prepared, startedAt: Date(), needsBody: false, policy: configuration.redirects,
                                 request: request, preRequest: preRequest)
            webSockets[position] = WebSocketJob(WebSocketSession(prepared, request: request, scope: scope, options: configuration.options))
        case .success(let prepared):
            learnSecrets(prepared.secrets)
            var policy = configuration.redirects
            policy.followsOriginalMethod = rules.followsOriginalMethod
            if let follow = request.followRedirects { policy.follow = follow }
            if let maximum = request.maxRedirects { policy.maximum = maximum }
            if let keep = request.followOriginalMethod { policy.keepsMethod = keep }
            if let trust = request.followAuthorization { policy.trustLocation = trust }
            let needsBody = !request.captures.isEmpty || (scripting != nil && !request.eventScripts.isEmpty) || request.expectations.contains {
                switch $0.expectation {
                case .body, .json: return true
                case .check(let check): return check.readsBody
                default: return false
                }
            }
            jobs[position] = Job(scope: scope, prepared: prepared, current: prepared, startedAt: Date(), needsBody: needsBody, policy: policy,
                                 request: request, preRequest: preRequest)
            if executor == nil {
                executor = HTTPExecutor(options: executorOptions)
                usedLibcurl = true
            }
            sent += 1
            executor!.start(prepared, inspectBody: needsBody, tag: position)
        }
    }

    /// The run's transfer options as its executor uses them.
    private var executorOptions: ExecutorOptions {
        var options = configuration.options
        options.multiplexWait = configuration.parallel > 1
        options.certificateInfo = readsCertificate
        return options
    }

    /// What a script call may send (`pm.sendRequest`) and the cookies it may use: the run's executor, the jar
    /// for the host of `url` (the request's) only.
    private func scriptTransport(host url: String) -> RunScriptTransport {
        RunScriptTransport(executor: executor, options: executorOptions, redirects: configuration.redirects, cookiesOf: url)
    }

    /// After a script call: keeps the executor it made, learns the credentials it sent, returns its exchanges.
    private mutating func adopt(_ transport: RunScriptTransport) -> [ScriptExchange] {
        if executor == nil, let made = transport.executor {
            executor = made
            usedLibcurl = true
        }
        learnSecrets(transport.secrets)
        return transport.exchanges
    }

    /// After a script call: a value scripts set on a secret variable of the environment or globals file, on
    /// a variable already secret, or equal to a secret known so far (`scope`'s, the run's) makes that variable
    /// secret (`ScriptVariables.secretNames`) and its value a secret for the rest of the run, masked from the
    /// result of the request whose script set it on. `credentials`: values that reached the request's auth
    /// (a variable a script set to one, or that the auth's `{{name}}` uses, becomes secret).
    private mutating func learnScriptSecrets(_ scope: VariableScope, credentials: [String] = []) {
        let fileSecrets = (configuration.environment?.layer.secretNames ?? []).union(configuration.runData.globals?.secretNames ?? [])
        var known: Set<String>?
        let set = [scriptVariables.globals, scriptVariables.environment, scriptVariables.local] + Array(scriptVariables.collections.values)
        for values in set {
            for (name, value) in values where !value.isEmpty && !runSecretSet.contains(value) {
                if known == nil { known = runSecretSet.union(scope.secretValues()).union(credentials) }
                guard fileSecrets.contains(name) || scriptVariables.secretNames.contains(name) || known!.contains(value) else { continue }
                scriptVariables.secretNames.insert(name)
                learnSecrets([value])
            }
        }
    }

    /// Waits for transfers (or the next retry time) and moves each finished job on.
    private mutating func wait() {
        let now = ContinuousClock.now
        let nextRetry = retryAt.values.min()
        var timeout = 100
        if let nextRetry {
            timeout = max(0, min(100, Int((nextRetry - now) / .milliseconds(1))))
        }
        let finished = executor?.waitForCompletions(timeoutMilliseconds: timeout, whileWaiting: pipeline.processOne) ?? []
        if !webSockets.isEmpty {
            // With no HTTP transfer to wait on, sleep until a WebSocket request ends (or the usual 100 ms).
            if finished.isEmpty, executor?.activeTransfers ?? 0 == 0 { _ = WebSocketJob.finished.wait(timeout: .now() + .milliseconds(timeout)) }
            for (position, job) in webSockets { if let outcome = job.take() { finishWebSocket(position, outcome) } }
        }
        if executor == nil || executor!.activeTransfers == 0 && finished.isEmpty, webSockets.isEmpty, let nextRetry, nextRetry > ContinuousClock.now {
            // In short steps, so Ctrl-C or SIGTERM stops a retry wait (up to 10 s) at once, as it does a --delay.
            while ContinuousClock.now < nextRetry, !Interruption.requested {
                Thread.sleep(forTimeInterval: min(0.05, Double((nextRetry - ContinuousClock.now) / .microseconds(1)) / 1_000_000))
            }
        }
        let done = finished.compactMap { advance($0.tag, $0.result) }
        // The requests that are done leave their slots now: start the next requests and send them before
        // finishing these (checks, results), so the server works on them meanwhile. Only in runs without
        // captures: a capture, and a cookie or secret it brings, must exist before later requests start; nor
        // with polling: a request sent again holds its slot until it passes or gives up.
        // --bail must see each failure before anything else starts; --delay paces from one finished request
        // to the next.
        if !done.isEmpty, !hasCaptures, !hasPolls, !configuration.bail, configuration.delayMilliseconds == 0 {
            startReady()
            executor?.sendStarted()
        }
        for item in done { finishAndComplete(item) }
        for position in retryAt.keys where Interruption.requested {
            retryAt[position] = nil
            guard let job = jobs.removeValue(forKey: position) else { continue }
            if var last = job.lastAttempt {
                last.polls = job.polls.count > 1 ? Array(job.polls.dropLast()) : nil
                complete(position, last, secrets: job.scope.secretValues() + job.prepared.secrets)
                continue
            }
            var result = baseResult(position, url: job.prepared.url, outcome: .transportError,
                                    error: ResultError(message: "\(Interruption.reason) while waiting to retry"))
            result.attempts = job.attempts - 1
            complete(position, result, secrets: job.scope.secretValues() + job.prepared.secrets)
        }
        for (position, due) in retryAt where due <= ContinuousClock.now {
            retryAt[position] = nil
            guard let job = jobs[position] else { continue }
            jobs[position]?.startedAt = Date()
            executor!.start(job.prepared, inspectBody: job.needsBody, tag: position)
        }
    }

    /// Records a WebSocket request that is over (`WebSocketSession`) and takes its captures.
    private mutating func finishWebSocket(_ position: Int, _ outcome: WebSocketOutcome) {
        webSockets[position] = nil
        guard let job = jobs.removeValue(forKey: position) else { return }
        var result = baseResult(position, url: job.prepared.url, outcome: .transportError, error: nil)
        outcome.apply(to: &result, startedAt: job.startedAt, runStart: runStart)
        // Pre-request scripts ran; test scripts do not run on WebSocket requests (Postman keeps those out of
        // collection exports and has no pm.response for a conversation).
        Self.record(job.preRequest, in: &result)
        for capture in result.captures { if let value = capture.value { captured.values[capture.variable] = value } }
        complete(position, result, secrets: job.scope.secretValues() + job.prepared.secrets)
    }

    /// After a transfer: follows a redirect or schedules a retry (the job stays), or, when the request is
    /// done, takes its job out and returns it with what `finish` needs.
    private mutating func advance(_ position: Int, _ transfer: TransferResult) -> Done? {
        // Moved out and back rather than copied: a copy of a job retains each of its requests' fields.
        guard var job = jobs.removeValue(forKey: position) else { return nil }
        switch RedirectFollower.decide(transfer, request: job.current, original: job.prepared, policy: job.policy, hopsSoFar: job.hops.count) {
        case .follow(let next, let hop):
            job.hops.append(hop)
            job.redirectSetCookies += transfer.response?.headers.values(named: "set-cookie") ?? []
            job.current = next
            jobs[position] = job
            executor!.start(next, inspectBody: job.needsBody, tag: position)
            return nil
        case .done(let stopReason):
            if stopReason == nil, job.attempts <= configuration.retries, RetryPolicy.shouldRetry(transfer), !Interruption.requested {
                retryAt[position] = ContinuousClock.now + .milliseconds(Int(RetryPolicy.delay(attempt: job.attempts, after: transfer) * 1000))
                job.attempts += 1
                job.hops = []
                job.redirectSetCookies = []
                job.current = job.prepared
                jobs[position] = job
                return nil
            }
            return Done(position: position, job: job, transfer: transfer, stopReason: stopReason)
        }
    }

    /// A request whose last transfer is over, waiting to be finished.
    private struct Done {
        var position: Int
        var job: Job
        var transfer: TransferResult
        var stopReason: String?
    }

    /// Checks expectations, takes captures and stores the result of a request that is done.
    private mutating func finishAndComplete(_ done: Done) {
        var result = finish(done.position, done.job, done.transfer, done.stopReason)
        // What libcurl added to the credentials as it sent them: cookies from the run's jar, the Basic field
        // of URL user information, a digest response.
        learnSecrets(CredentialSecrets.inHeaders(done.transfer.sentHeaders, names: done.job.current.credentialHeaderNames)
                     + zip(result.captures, references[done.position].request.captures).compactMap { capture, spec in
                         spec.takesCookie ? capture.value : nil
                     })
        let poll = references[done.position].request.poll ?? configuration.poll
        if let poll, result.isFailure, done.job.polls.count < poll.count, !Interruption.requested {
            // Sent again after the interval; this attempt goes into the record of the last one.
            var job = done.job
            job.polls.append(PollAttempt(result))
            job.lastAttempt = result
            (job.attempts, job.hops, job.redirectSetCookies, job.current) = (1, [], [], job.prepared)
            jobs[done.position] = job
            retryAt[done.position] = ContinuousClock.now + .milliseconds(poll.intervalMilliseconds)
            return
        }
        if !done.job.polls.isEmpty { result.polls = done.job.polls }
        complete(done.position, result, secrets: done.job.scope.secretValues() + done.job.prepared.secrets)
    }

    /// For undefined variables that an earlier request of this run was to capture and did not: ` (captured by
    /// 'Group/Name', which took no value in this run)`, one such part per name; otherwise "".
    private func missedCaptureNote(_ failure: PreparationFailure) -> String {
        guard case .undefinedVariables(let names, _) = failure else { return "" }
        return names.compactMap { name in
            missedCaptures[name].map { " ('\(name)' is captured by '\($0)', which took no value in this run)" }
        }.joined()
    }

    /// Adds values that reached a credential to the run's secrets.
    private mutating func learnSecrets(_ values: [String]) {
        for value in values where !value.isEmpty && runSecretSet.insert(value).inserted { runSecrets.append(value) }
    }

    /// The result of a request whose last transfer is `transfer`: expectations checked, captures taken.
    private mutating func finish(_ position: Int, _ job: Job, _ transfer: TransferResult, _ stopReason: String?) -> RequestResult {
        let request = job.request
        let limit = configuration.options.bodyLimit
        var result = baseResult(position, url: job.prepared.url, outcome: .transportError, error: transfer.error)
        result.method = job.prepared.method
        result.request = SentRequest(headers: transfer.sentHeaders, bodySize: transfer.uploadedBytes,
                                     body: job.current.body?.bytes.map { RecordedBody(prefix: Array($0.prefix(limit)), truncated: $0.count > limit) })
        result.response = transfer.response
        result.timings = transfer.timings
        result.startedAt = RunID.iso8601(job.startedAt)
        result.startOffset = Int((job.startedAt.timeIntervalSince(runStart) * 1_000_000).rounded())
        result.redirects = job.hops
        result.attempts = job.attempts
        // Under --compat newman: a `warn:` console line on the first request that sends each undefined name as text.
        for name in job.prepared.literalReferences where literalsWarned.insert(name).inserted {
            result.console = (result.console ?? []) + [RequestRules.literalWarning(name)]
        }
        var scriptView: ResponseView?
        if let stopReason {
            result.error = ResultError(message: stopReason)
        } else if let response = transfer.response {
            var view = ResponseView(status: response.status, headers: response.headers, body: transfer.body,
                                    bodySize: response.bodySize, totalMicroseconds: transfer.timings.total,
                                    redirectSetCookies: job.redirectSetCookies)
            (view.finalURL, view.redirects, view.httpVersion) = (job.current.url, job.hops, response.httpVersion)
            (view.timings, view.bodySHA256, view.certificate) = (transfer.timings, response.bodySHA256, transfer.certificate)
            result.outcome = .response
            // Captures first, so that expectations can check what this request captured (as Hurl does).
            result.captures = request.captures.map { CaptureCheck.evaluate($0, view, scope: job.scope) }
            for (capture, spec) in zip(result.captures, request.captures) {
                guard let value = capture.value else { continue }
                captured.values[capture.variable] = value
                view.capturedValues[capture.variable] = value
                // A session cookie is a credential: mask it wherever it shows up later.
                if spec.takesCookie { captured.secretNames.insert(capture.variable) }
            }
            result.expectations = request.expectations.map { ExpectationCheck.check($0, view, scope: job.scope) }
            scriptView = view
        }
        Self.record(job.preRequest, in: &result)
        // Test scripts run after a response, and after a transport error as Newman runs them (postman-runtime's
        // item command queues the test event whatever the request's outcome; `pm.response` is then undefined),
        // except when --bail stops the run there (Newman's --bail skips them too).
        let testScripts = scripting == nil ? [] : request.eventScripts.filter { $0.event == .test }
        if let scripting, !testScripts.isEmpty, stopReason == nil, scriptView != nil || !configuration.bail {
            let transport = scriptTransport(host: job.current.url)
            var outcome = scripting.test(testScripts, request: request, response: scriptView,
                                         context: scriptContext(position, job.scope, transport), variables: &scriptVariables)
            outcome.requests = adopt(transport)
            learnScriptSecrets(job.scope)
            if let next = outcome.nextRequest { nextRequests[position] = next }
            Self.record(outcome, in: &result)
            if let error = outcome.error {
                if result.outcome == .response {
                    result.outcome = .scriptError
                    result.error = ResultError(message: error)
                } else {
                    // The transport error stays the outcome; the script's failure is said after it.
                    result.error?.message += "; then a test script failed: \(error)"
                }
            }
        }
        result.updateVerdict()
        return result
    }

    /// The variable layers of the request at `position`, with the values scripts set so far.
    private func scope(_ position: Int, fileLayers: [VariableLayer]) -> VariableScope {
        Runner.scope(fileLayers: fileLayers, configuration, captured: captured,
                     scripts: scripting == nil ? nil : scriptVariables, collectionKey: references[position].collectionIndex,
                     iteration: iteration(position))
    }

    private func scriptContext(_ position: Int, _ scope: VariableScope, _ transport: RunScriptTransport) -> ScriptContext {
        var context = Runner.scriptContext(references[position], configuration, captured: captured, iteration: iteration(position))
        context.transport = transport
        return context
    }

    /// Adds a script event's assertions (as expectations of kind `script`) and console lines to `result`.
    static func record(_ outcome: ScriptOutcome, in result: inout RequestResult) {
        for assertion in outcome.assertions {
            result.expectations.append(ExpectationResult(description: assertion.name, passed: assertion.passed || assertion.skipped,
                                                         expected: "", actual: assertion.error ?? "", fieldPath: assertion.place,
                                                         kind: assertion.skipped ? ExpectationResult.skippedScriptKind : ExpectationResult.scriptKind))
        }
        if !outcome.console.isEmpty { result.console = (result.console ?? []) + outcome.console }
        if !outcome.requests.isEmpty { result.scriptRequests = (result.scriptRequests ?? []) + outcome.requests }
    }

    /// Stores a finished result and the secrets to mask in it; remembers the first failure for `--bail`
    /// (masking changes no outcome).
    private mutating func complete(_ position: Int, _ result: RequestResult, secrets: [String]) {
        results[position] = result
        let captures = references[position].request.captures
        if !captures.isEmpty {
            for (offset, spec) in captures.enumerated() {
                let took = offset < result.captures.count && result.captures[offset].value != nil
                missedCaptures[spec.variable] = took ? nil : references[position].pathText
            }
        }
        self.secrets[position] = secrets + runSecrets
        if configuration.bail, result.isFailure, stoppedBy == nil { stoppedBy = result }
        if let flow, position == references.count - 1 { follow(flow, after: position) }
    }

    /// With `setNextRequest`: adds the request that comes after `position` (`FlowControl.after`).
    private mutating func follow(_ flow: FlowControl, after position: Int) {
        let (step, warning) = flow.after(steps[position], next: nextRequests.removeValue(forKey: position))
        if let warning { results[position]!.console = (results[position]!.console ?? []) + [warning] }
        guard let step else { return }
        references.append(flow.selection[step.index])
        steps.append(step)
        notStarted.append(references.count - 1)
    }

    /// Hands finished results to the pipeline in list order.
    private mutating func report() {
        // Moved, not copied: a copy of a result retains and later releases each of its two dozen strings and
        // arrays, which showed in profiles of 1,000-request runs (perf).
        while let result = results.removeValue(forKey: reported) {
            pipeline.submit(result, secrets: secrets.removeValue(forKey: reported) ?? [])
            reported += 1
        }
    }
}
