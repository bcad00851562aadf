import Foundation

/// Runs a selection of requests in list order and builds the run record.
public enum Runner {
    /// Prepares and sends each request in order. One failure does not stop the run.
    /// - Parameters:
    ///   - references: the selected requests, in list order.
    ///   - overrides: `--var NAME=VALUE` values; they win over collection variables.
    ///   - onResult: called after each request, in order, so the console can show progress.
    /// - Returns: the run record (not yet saved: see `RunStore.save`).
    public static func run(_ references: [RequestReference], selection: RunSelection, overrides: [String: String],
                           workspace: Workspace, options: ExecutorOptions,
                           onResult: (RequestResult) -> Void = { _ in }) -> RunRecord {
        let started = Date()
        let id = RunID.make(started)
        var results: [RequestResult] = []
        // Created lazily: a selection whose requests are all skipped never initialises libcurl.
        var executor: HTTPExecutor?
        for reference in references {
            let request = reference.request
            var result = RequestResult(index: reference.index, collection: reference.collectionName,
                                       groupPath: reference.groupPath,
                                       groupID: reference.groups.last!.id.uuidString.lowercased(),
                                       name: request.name, method: request.method, url: request.url, outcome: .invalid)
            switch RequestPreparation.prepare(reference, overrides: overrides) {
            case .failure(let failure):
                if case .unsupportedScheme = failure {
                    result.url = (try? Template.resolve(request.url, RequestPreparation.variables(for: reference, overrides: overrides)).get()) ?? request.url
                }
                result.outcome = failure.isSkip ? .skipped : .invalid
                result.error = ResultError(message: failure.description)
            case .success(let prepared):
                result.url = prepared.url
                if executor == nil { executor = HTTPExecutor(options: options) }
                let transfer = executor!.send(prepared)
                result.outcome = transfer.response != nil ? .response : .transportError
                result.error = transfer.error
                result.request = SentRequest(headers: transfer.sentHeaders, bodySize: prepared.body?.count ?? 0)
                result.response = transfer.response
                result.timings = transfer.timings
            }
            results.append(result)
            onResult(result)
        }
        executor?.close()
        return RunRecord(id: id, startedAt: RunID.iso8601(started), endedAt: RunID.iso8601(Date()),
                         reqrunVersion: reqrunVersion, libcurlVersion: executor == nil ? "" : HTTPExecutor.libcurlVersion,
                         workspace: workspace.root.path, selection: selection, results: results)
    }
}
