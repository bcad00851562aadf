import Foundation
import ReqRunKit

/// `setTimeout`, `setInterval`, `setImmediate` and their `clear*`, as postman-sandbox gives them
/// (lib/sandbox/timers.js and execute.js): the globals, and `require('timers')`'s exports.
///
/// The JavaScript side (`source`, evaluated once after the other sources) keeps the event's timers in its
/// closure. A script's event ends only when none is pending: after each script (and each answer or callback),
/// `__reqrun.after` gives Swift `~MS` while one waits (the milliseconds until the earliest is due, in the
/// queue's order after `pm.sendRequest`'s requests); Swift sleeps that long (`waitForTimer`) and calls
/// `__reqrun.fire`, which runs the earliest, one callback per call into JavaScript so that the promise jobs
/// it leaves run before the next. postman-sandbox's rules:
/// - A callback that is not a function sets nothing and gives `undefined`.
/// - The callback gets no arguments (postman-sandbox calls it with `apply(dummyContext, null)`: the
///   arguments after the delay are dropped) and `this` is an empty object.
/// - Each kind clears only its own (`clearTimeout` of an interval's id does nothing: postman-sandbox keeps
///   one table per kind); an unknown id does nothing. Ids are numbers, never reused in a run.
/// - A delay as Node reads it (the run's sandbox is Node's there): a number of milliseconds, anything below 1
///   or above 2^31 - 1 (or not a number) is 1. `setImmediate` is due at once; equal due times fire in the
///   order set. An interval is due again its delay after its callback started.
/// - An exception a callback throws is the script's error (postman-sandbox dispatches `execution.error`);
///   the other timers still fire, as there, and the event ends as usual (`PostmanSandbox.run` reports the first).
/// - `pm.execution.skipRequest()` ends the event: its timers are dropped (postman-sandbox's `terminate`).
/// - When an event ends, or begins, its timers are gone: none fires in a later script.
enum SandboxTimers {
    /// When the clock the JavaScript side reads started (`clock`).
    private static let epoch = ContinuousClock.now

    /// `__reqrunNow`: milliseconds since `epoch`, as text (a native function returns text).
    static func clock() -> String { String((ContinuousClock.now - epoch) / .milliseconds(1)) }

    static let source = #"""
(function (global) {
  'use strict';
  var reqrun = global.__reqrun, now = global.__reqrunNow, end = reqrun.end, begin = reqrun.begin;
  delete global.__reqrunNow;
  // Built-ins taken now: what runs between scripts calls none a script could have replaced.
  var create = Object.create, apply = Reflect.apply, none = [];
  // `context`: the callbacks' `this`, an empty object made at an event's first callback (postman-sandbox's
  // `dummyContext`, one per execution), so nothing a callback puts on it reaches a later event.
  var pending = create(null), count = 0, nextId = 0, order = 0, context = null;
  // (`count` is the table's size: an empty table is kept, not made again at every event.)
  // The pending timers also sit in a binary min-heap by (due, order), so the earliest is found in O(log n)
  // (a scan of every pending timer at each callback made 5,000 timers take 4 s). A cleared timer stays in the
  // heap marked dead and is dropped when it reaches the top. The heap is a null-prototype object with its own
  // size, not an array: nothing a script does to Array.prototype reaches it.
  var heap = create(null), size = 0;
  function clearAll() { if (count !== 0 || size !== 0) { pending = create(null); count = 0; heap = create(null); size = 0; } }
  function before(a, b) { return a.due < b.due || (a.due === b.due && a.order < b.order); }
  function push(timer) {
    var at = size++;
    while (at > 0) {
      var up = (at - 1) >> 1, parent = heap[up];
      if (!before(timer, parent)) break;
      heap[at] = parent;
      at = up;
    }
    heap[at] = timer;
  }
  function pop() {
    var top = heap[0], last = heap[--size];
    delete heap[size];
    if (size === 0) return top;
    var at = 0;
    while (true) {
      var child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && before(heap[child + 1], heap[child])) child++;
      if (!before(heap[child], last)) break;
      heap[at] = heap[child];
      at = child;
    }
    heap[at] = last;
    return top;
  }
  function clock() { return +now(); }
  // Node's reading of a delay (lib/internal/timers.js): `after *= 1`, then 1 unless 1 <= after <= 2^31 - 1.
  function delay(ms) {
    var after = ms * 1;
    return after >= 1 && after <= 2147483647 ? after : 1;
  }
  function setter(kind) {
    return function (callback, ms) {
      if (typeof callback !== 'function') return undefined;
      var id = ++nextId, wait = kind === 'Immediate' ? 0 : delay(ms);
      var timer = { id: id, kind: kind, callback: callback, delay: wait, due: clock() + wait, order: ++order, live: true };
      pending[id] = timer;
      push(timer);
      count++;
      return id;
    };
  }
  function clearer(kind) {
    return function (id) {
      var timer = pending[id];
      if (timer === undefined || timer.kind !== kind) return;
      delete pending[id];
      timer.live = false;
      count--;
    };
  }
  var names = ['Timeout', 'Interval', 'Immediate'], exports = {};
  for (var n = 0; n < names.length; n++) {
    exports['set' + names[n]] = setter(names[n]);
    exports['clear' + names[n]] = clearer(names[n]);
  }
  var exported = Object.keys(exports);
  for (var e = 0; e < exported.length; e++) reqrun.runGlobal(exported[e], exports[exported[e]]);
  reqrun.provide('timers', Object.freeze(exports));

  // The pending timer due first (the earliest set of those due together), or undefined.
  function earliest() {
    while (size !== 0 && !heap[0].live) pop();
    return size === 0 ? undefined : heap[0];
  }
  // `after`, once pm.sendRequest's queue is empty: '~MS' (milliseconds until the earliest timer is due, 0 when
  // it is) while one is pending, else ''. A skipped request's event ends: its timers are dropped.
  reqrun.waiting = function () {
    if (count === 0) return '';
    if (reqrun.skipped()) { clearAll(); return ''; }
    var left = earliest().due - clock();
    return '~' + (left > 0 ? left : 0);
  };
  // Swift, once the earliest timer is due: runs it. A timeout is gone before its callback runs, an interval
  // due again unless its callback clears it; the callback's exception is this call's.
  reqrun.fire = function () {
    var timer = earliest();
    if (timer === undefined) return '';
    pop();
    if (timer.kind === 'Interval') {
      timer.due = clock() + timer.delay;
      timer.order = ++order;
      push(timer);
    } else {
      delete pending[timer.id];
      timer.live = false;
      count--;
    }
    if (context === null) context = {};
    apply(timer.callback, context, none);
    return '';
  };
  reqrun.begin = function (json, authJSON) {
    clearAll();
    context = null;
    return begin(json, authJSON);
  };
  reqrun.end = function () {
    clearAll();
    return end();
  };
})(this);
"""#
}

extension PostmanSandbox {
    /// How long one sleep of a wait lasts at most: Ctrl-C or SIGTERM (`Interruption`) stops a wait within it,
    /// as the runner's own waits between requests (`Runner`) look at it every 50 ms.
    static let timerSlice = Duration.milliseconds(50)

    /// After `__reqrun.after` gave `~MS`: sleeps until the earliest timer is due (in slices, never past
    /// `deadline`), then fires it.
    /// - Parameters:
    ///   - text: `after`'s `~MS` (milliseconds, possibly fractional).
    ///   - deadline: when the script's time limit ends (nil: none).
    ///   - late: the first exception a callback threw, kept while the other timers fire.
    /// - Returns: nil to go on (the next `after`), or the failure that ends the event: the time limit reached
    ///   while waiting, the run interrupted, or a callback stopped by a limit.
    func waitForTimer(_ text: Substring, deadline: ContinuousClock.Instant?, late: inout JavaScriptEngine.Failure?)
        -> JavaScriptEngine.Failure? {
        let milliseconds = Double(text) ?? 0
        let due = ContinuousClock.now + .microseconds(Int64((milliseconds * 1000).rounded(.up)))
        while true {
            if Interruption.requested { return JavaScriptEngine.Failure(message: "", timedOut: false, interrupted: true) }
            let now = ContinuousClock.now
            if let deadline, now >= deadline { return JavaScriptEngine.Failure(message: "", timedOut: true) }
            if now >= due { break }
            var until = min(due, now + Self.timerSlice)
            if let deadline { until = min(until, deadline) }
            Thread.sleep(forTimeInterval: Double((until - now) / .microseconds(1)) / 1_000_000)
        }
        if case .failure(let failure) = fire.call(engine, []) {
            if failure.timedOut || failure.outOfMemory || failure.interrupted { return failure }
            if late == nil { late = failure }
        }
        return nil
    }
}
