/// `postman.setNextRequest` and `pm.execution.setNextRequest` with Newman's semantics (postman-runtime):
/// when the current request is done (its test scripts included), the run goes on with the named request of
/// the selection (by id, else by name; the first match) instead of the next one in list order; `null` ends
/// the iteration (the next one starts from the top). A name that matches nothing ends the iteration too
/// (with a warning in the result's console). Without a call, the next request in list order.
///
/// A run whose scripts call it goes one request at a time, and its results are in the order sent (a
/// request may appear several times, or not at all). `--max-requests` bounds how many are sent (`Runner`).
struct FlowControl: Sendable {
    /// One iteration's requests, in list order.
    let selection: [RequestReference]
    let iterations: Int

    /// Whether a script of `selection` may call `setNextRequest` (its name is in the text: a byte search;
    /// Foundation's `contains` cost about 44,000 instructions a script, once per run, callgrind).
    static func isUsed(in selection: [RequestReference]) -> Bool {
        selection.contains { $0.request.eventScripts.contains { $0.source.containsUTF8("setNextRequest") } }
    }

    /// Where a request of the selection is.
    struct Step: Sendable, Equatable {
        var iteration: Int
        var index: Int
    }

    /// The first request of the run, if any.
    var first: Step? { selection.isEmpty ? nil : Step(iteration: 0, index: 0) }

    /// The request after `step`, given what its scripts asked (`next`); nil when the run is over. `warning`
    /// says why a name was not followed.
    func after(_ step: Step, next: NextRequest?) -> (step: Step?, warning: String?) {
        let nextIteration = step.iteration + 1 < iterations ? Step(iteration: step.iteration + 1, index: 0) : nil
        switch next {
        case nil:
            return (step.index + 1 < selection.count ? Step(iteration: step.iteration, index: step.index + 1) : nextIteration, nil)
        case .stop:
            return (nextIteration, nil)
        case .request(let target):
            if let index = selection.firstIndex(where: { $0.request.id == target }) ?? selection.firstIndex(where: { $0.request.name == target }) {
                return (Step(iteration: step.iteration, index: index), nil)
            }
            return (nextIteration, "warn: setNextRequest('\(target)'): no request of that name or id in the selection; the iteration stops")
        }
    }
}
