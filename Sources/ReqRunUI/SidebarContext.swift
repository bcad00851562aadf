import Foundation
import ReqRunKit

/// What the full-screen UI works on, as the CLI loaded it: the workspace and its collections, the state
/// store (the expanded set, the environment in use), and how requests are sent and recorded.
public struct SidebarContext {
    public var workspace: Workspace
    public var collections: [RequestCollection]
    /// The same store and codec `reqrun expand` uses: every expand and collapse is saved through it at once.
    public var store: StateStore
    /// Variables (`--var`, the environment), executor options and masking for every send; its selection is
    /// replaced per send.
    public var configuration: RunConfiguration
    /// How many run records to keep (`reqrun history --keep`).
    public var historyLimit: Int
    /// The environments of `environments/` (`reqrun env list`) and the one in use.
    public var environmentNames: [String]
    public var environmentName: String?
    /// Saves the choice of environment as `reqrun env use NAME` (nil: `--none`) and returns it loaded.
    public var useEnvironment: (String?) throws -> Environment?
    /// Runs the Postman scripts of each request sent (nil: none run).
    public var scripting: RequestScripting?
    /// Draw the first full frame, then give the terminal back and return (for benchmarks: `--first-frame-only`).
    public var firstFrameOnly: Bool
    /// `NO_COLOR` is set: attributes (bold, reverse) only.
    public var noColor: Bool

    public init(workspace: Workspace, collections: [RequestCollection], store: StateStore, configuration: RunConfiguration,
                historyLimit: Int, environmentNames: [String], environmentName: String?,
                useEnvironment: @escaping (String?) throws -> Environment?, scripting: RequestScripting? = nil,
                firstFrameOnly: Bool, noColor: Bool) {
        self.workspace = workspace
        self.collections = collections
        self.store = store
        self.configuration = configuration
        self.historyLimit = historyLimit
        self.environmentNames = environmentNames
        self.environmentName = environmentName
        self.useEnvironment = useEnvironment
        self.scripting = scripting
        self.firstFrameOnly = firstFrameOnly
        self.noColor = noColor
    }
}
