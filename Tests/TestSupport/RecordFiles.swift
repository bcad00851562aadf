import Foundation
import ReqRunKit

/// Run records as tests read them from a workspace's `.reqrun/runs/`, whatever their format.
public enum RecordFiles {
    /// The record in `file` (a path under `.reqrun/runs/`, either format), whole.
    public static func decode(_ file: URL) throws -> RunRecord {
        try RunStore(directory: file.deletingLastPathComponent()).load(idOrFile: file.path)
    }

    /// The newest record of the workspace at `root`.
    public static func newest(in root: URL) throws -> RunRecord {
        try RunStore(directory: root.appendingPathComponent(".reqrun/runs")).load(nil)
    }
}
