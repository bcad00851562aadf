/// chai's guard against misspelt properties, made cheaper: evaluated once per run, right after chai.
///
/// Debian's chai 4.3.7 wraps every `Assertion` it makes in a `Proxy` (`util.proxify`, called by the
/// constructor), with a new handler and trap closure each time, and every property read of a chain (`.to`,
/// `.be`, each flag a method reads through `this`) runs the trap: two `indexOf`, a `Reflect.has`, two `flag`
/// calls. A `pm.expect(…).to.eql(…)` made four such objects and cost about 170,000 instructions in the
/// interpreter. Here one `Proxy` for the run sits at the end of `Assertion.prototype`'s chain (between it and
/// `Object.prototype`), so a read reaches it only when no assertion property has the name, and
/// `chai.util.proxify` gives an `Assertion` back as it is (any other object, a method's or plugin's, still gets
/// chai's own proxy). The guard throws as chai's trap does, under the same conditions (`config.useProxy`, a
/// string name, not in `config.proxyExcludedKeys`, not on `Object.prototype`, the object an assertion with
/// its `__flags`) by reading the name through chai's own `proxify`, so the error and its "Did you mean"
/// suggestion are chai's, computed only then. chai's internal names (`__flags`, `__methods`, `_obj`,
/// `assert`) read as undefined when missing, as on chai's unproxied target.
///
/// What differs: chai set the `ssfi` flag (where a failure's stack starts) on each proxied read; a failed
/// property assertion (`.to.be.true`, `.ok`) now has an empty `stack` (its name and message are unchanged;
/// `console.log` of it prints both). Methods (`.equal`, `.eql`, `.include(…)`) set `ssfi` themselves and keep
/// their stacks.
enum SandboxChaiGuard {
    static let source = #"""
(function (chai) {
  'use strict';
  var util = chai.util, config = chai.config, proxify = util.proxify, Assertion = chai.Assertion;
  var builtins = ['__flags', '__methods', '_obj', 'assert'], own = Object.prototype.hasOwnProperty;
  var end = Object.create(Object.prototype);
  var guard = new Proxy(end, {
    get: function (target, property, receiver) {
      if (typeof property === 'string' && config.useProxy && own.call(receiver, '__flags') &&
          builtins.indexOf(property) === -1 && config.proxyExcludedKeys.indexOf(property) === -1 &&
          !Reflect.has(target, property)) {
        return proxify(receiver)[property];
      }
      return Reflect.get(target, property, receiver);
    }
  });
  Object.setPrototypeOf(Assertion.prototype, guard);
  util.proxify = function (object, nonChainableMethodName) {
    if (nonChainableMethodName === undefined && object instanceof Assertion) return object;
    return proxify(object, nonChainableMethodName);
  };
})(globalThis.chai);
"""#
}
