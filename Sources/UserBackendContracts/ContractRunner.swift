import Foundation
import UserBackendKit

/// Runs every contract on every harness and collects a ``ContractReport``.
///
/// Each run gets a fresh environment and a new `InMemorySessionStore`; steps run in
/// order and the run stops at the first mismatch. Runs of different (contract,
/// harness) pairs may overlap (``maxConcurrentRuns``); the report is always in
/// contract order, then harness order.
public struct ContractRunner: Sendable {
  /// The contracts, in report order.
  public var contracts: [Contract]
  /// The harnesses, in report (column) order.
  public var harnesses: [any ContractHarness]
  /// How many runs may be in flight at once (at least 1).
  public var maxConcurrentRuns: Int
  /// How long an `expectEvents` step waits for its events (default
  /// ``standardEventTimeout``). A backend that delivers its events is never slowed by it:
  /// the step goes on as soon as they are there (plus a 50 ms settle); only a missing event
  /// waits it out.
  public var eventTimeout: Duration

  /// The default event timeout: 30 seconds. Generous on purpose: on a loaded machine
  /// (hundreds of tests on two cores) the task collecting a stream's events can wait
  /// seconds for a thread, and a shorter bound failed sound backends (5 s did, about one
  /// run in six of the full suite).
  public static let standardEventTimeout: Duration = .seconds(30)

  /// A runner over `contracts` x `harnesses`.
  public init(
    contracts: [Contract], harnesses: [any ContractHarness], maxConcurrentRuns: Int = 4,
    eventTimeout: Duration = ContractRunner.standardEventTimeout
  ) {
    self.contracts = contracts
    self.harnesses = harnesses
    self.maxConcurrentRuns = max(1, maxConcurrentRuns)
    self.eventTimeout = eventTimeout
  }

  /// Runs everything; `progress` is called as each result arrives (in completion order).
  public func run(progress: (@Sendable (ContractResult) -> Void)? = nil) async -> ContractReport {
    var pairs: [(Contract, any ContractHarness)] = []
    for contract in contracts {
      for harness in harnesses { pairs.append((contract, harness)) }
    }
    let timeout = eventTimeout
    var results = [ContractResult?](repeating: nil, count: pairs.count)
    await withTaskGroup(of: (Int, ContractResult).self) { group in
      var next = 0
      func startNext() {
        guard next < pairs.count else { return }
        let (index, (contract, harness)) = (next, pairs[next])
        next += 1
        group.addTask {
          (index, await Self.run(contract, on: harness, eventTimeout: timeout))
        }
      }
      for _ in 0..<min(maxConcurrentRuns, pairs.count) { startNext() }
      for await (index, result) in group {
        results[index] = result
        progress?(result)
        startNext()
      }
    }
    return ContractReport(
      contracts: contracts.map(\.name), harnesses: harnesses.map(\.name),
      results: results.compactMap { $0 })
  }

  /// Runs one contract on one harness (for a parameterised `@Test`).
  public static func run(
    _ contract: Contract, on harness: any ContractHarness,
    eventTimeout: Duration = ContractRunner.standardEventTimeout
  ) async -> ContractResult {
    func result(_ outcome: ContractOutcome, byEnvironment: Bool = false) -> ContractResult {
      ContractResult(
        contract: contract.name, harness: harness.name, outcome: outcome,
        skippedByEnvironment: byEnvironment)
    }
    let proposed = ContractVariables.propose(for: contract)
    let environment: any ContractEnvironment
    do {
      environment = try await harness.makeEnvironment(for: contract, variables: proposed)
    } catch let skip as ContractSkip {
      return result(.skipped(reason: skip.reason), byEnvironment: skip.byEnvironment)
    } catch {
      return result(.failed(setupFailure("an environment", error)))
    }
    // What the backend lacks is named first and alone: that is what skips.json pins per
    // backend. A missing clock is the environment's (a live run), reported as such.
    let missing = contract.requires.filter { capability in
      capability != Contract.controllableClock && !environment.capabilities.contains(capability)
    }
    if !missing.isEmpty {
      return result(
        .skipped(reason: "missing capability " + missing.map(\.rawValue).joined(separator: ", ")))
    }
    if contract.requires.contains(Contract.controllableClock), environment.clock == nil {
      return result(
        .skipped(reason: "the environment has no controllable clock (controllableClock)"),
        byEnvironment: true)
    }
    let backend: any UserBackend
    let store = InMemorySessionStore()
    do {
      backend = try await environment.makeBackend(sessionStore: store)
    } catch {
      return result(.failed(setupFailure("a backend", error)))
    }
    var values = proposed
    values.merge(environment.variables) { _, final in final }
    var execution = ContractExecution(
      contract: contract, environment: environment, store: store, eventTimeout: eventTimeout,
      backend: backend, values: values)
    let failure: ContractFailure?
    do {
      failure = try await execution.run()
    } catch let skip as ContractSkip {
      return result(.skipped(reason: skip.reason), byEnvironment: skip.byEnvironment)
    } catch {
      failure = setupFailure("the steps to run", error)
    }
    do {
      try await environment.finish(passed: failure == nil)
    } catch let skip as ContractSkip {
      return result(
        failure.map { .failed($0) } ?? .skipped(reason: skip.reason),
        byEnvironment: failure == nil && skip.byEnvironment)
    } catch {
      if failure == nil {
        return result(
          .failed(
            ContractFailure(
              step: nil, label: nil, operation: "finish", expected: "the environment to finish",
              actual: redact(describeError(error), execution.allSecrets))))
      }
    }
    return result(failure.map { .failed($0) } ?? .passed)
  }

  private static func setupFailure(_ what: String, _ error: any Error) -> ContractFailure {
    ContractFailure(
      step: nil, label: nil, operation: "setup", expected: what, actual: describeError(error))
  }
}
