import Foundation

/// What a run uses besides the requests: variable sources, executor settings, masking.
public struct RunConfiguration: Sendable {
    public var selection: RunSelection
    /// The environment (`--env`, or the one saved with `reqrun env use`).
    public var environment: Environment?
    /// `--var NAME=VALUE` values.
    public var overrides: [String: String]
    /// Read only through `{{process.env.NAME}}`, only the names it allows (`--allow-env NAME`).
    public var processEnvironment: ProcessEnvironment
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
    /// `--retry-until-pass N --retry-interval MS`: send each request again while an expectation or capture
    /// fails (a request's own `retry` wins).
    public var poll: PollPolicy?
    /// `--pause MS`: wait MS milliseconds before each request (Hurl's `--delay`), counted from when the wait
    /// begins, unlike `--delay`, which counts from the previous request's start.
    public var pauseMilliseconds = 0
    /// `--bail`: stop at the first request that fails; the rest are recorded as not run.
    public var bail: Bool
    /// `--parallel N`: how many requests may be in flight at once (1: one after another).
    public var parallel: Int
    /// Values captured by earlier recorded runs, for variables no layer defines and no request of this
    /// command captures first (`EarlierCaptures`): a literal layer just under this run's own captures.
    public var carriedCaptures: VariableLayer?
    /// `--iterations`, `--iteration-data`, `--globals` (Newman's `-n`, `-d`, `-g`).
    public var runData = RunData()
    /// `--max-requests N`: the most requests a run sends (0: none); nil: `defaultMaxRequests` when a script
    /// calls `setNextRequest`, else no bound.
    public var maxRequests: Int?
    /// The run's request rules, for requests whose collection sets none (`RequestCollection.compat`, which
    /// `--compat MODE` sets for every collection): `requestRules(for:)`.
    public var requestRules = RequestRules.reqrun
    /// The bound on requests sent in a run with `setNextRequest`, against endless loops.
    public static let defaultMaxRequests = 10_000

    public init(selection: RunSelection, environment: Environment? = nil, overrides: [String: String] = [:],
                processEnvironment: ProcessEnvironment = .empty, options: ExecutorOptions = ExecutorOptions(), showSecrets: Bool = false,
                redirects: RedirectPolicy = RedirectPolicy(), retries: Int = 0, delayMilliseconds: Int = 0, bail: Bool = false,
                parallel: Int = 1) {
        self.parallel = max(1, parallel)
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

extension RunConfiguration {
    /// The rules `reference` follows: its collection's (`RequestRules`' order: `--compat`, `reqrun.json`, the
    /// collection's `compat`), else the run's.
    public func requestRules(for reference: RequestReference) -> RequestRules {
        reference.collectionRules ?? requestRules
    }
}
