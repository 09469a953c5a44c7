import Foundation
import UserBackendKit

/// One run of one contract in one environment: executes the steps in order and stops at
/// the first mismatch.
struct ContractExecution {
  let contract: Contract
  let environment: any ContractEnvironment
  let store: InMemorySessionStore
  let eventTimeout: Duration
  var backend: any UserBackend
  var values: [String: String]
  var records: [String: StepValue] = [:]
  var latestVerificationID: String?
  var subscriptions: [String: EventCollector] = [:]
  var latestSubscription: EventCollector?
  /// The second devices of `addDevice` steps, by label.
  var devices: [String: any UserBackend] = [:]
  /// Tokens and passwords seen in this run, scrubbed from every failure text.
  var secrets: Set<String> = []
  /// Out-of-band codes the operations met, scrubbed likewise.
  let codes = SecretSink()

  /// Runs every step; `nil` when all passed.
  /// - Throws: ``ContractSkip`` when the environment declines a step (no SMS code).
  mutating func run() async throws -> ContractFailure? {
    defer { for collector in subscriptions.values { collector.stop() } }
    for (index, rawStep) in contract.steps.enumerated() {
      let step: ContractStep
      do {
        step = try substitute(rawStep)
      } catch {
        return failure(
          index, rawStep, expected: "a step whose variables have values", actual: "\(error)")
      }
      let result: Result<StepValue, any Error>
      do {
        if let device = step.device {
          result = .success(try await executeOnDevice(step.operation, device: device))
        } else {
          result = .success(try await execute(step.operation, label: step.label, index: index))
        }
      } catch let skip as ContractSkip {
        throw skip
      } catch let failure as StepFailure {
        return self.failure(index, step, expected: failure.expected, actual: failure.actual)
      } catch {
        result = .failure(error)
      }
      if case .success(let value) = result { secrets.formUnion(value.secrets) }
      let matcher = ExpectationMatcher(records: records)
      if let mismatch = matcher.check(step.expectation, result) {
        return failure(index, step, expected: mismatch.expected, actual: mismatch.actual)
      }
      if let label = step.label, case .success(let value) = result { records[label] = value }
    }
    return nil
  }

  /// A problem with the environment rather than the backend (no clock, no backend).
  struct StepFailure: Error {
    var expected: String
    var actual: String
  }

  private func failure(_ index: Int, _ step: ContractStep, expected: String, actual: String)
    -> ContractFailure
  {
    ContractFailure(
      step: index + 1, label: step.label, operation: step.operation.name.rawValue,
      expected: redact(expected, allSecrets), actual: redact(actual, allSecrets))
  }

  /// Every secret of the run so far.
  var allSecrets: Set<String> { secrets.union(codes.all) }

  private mutating func substitute(_ step: ContractStep) throws -> ContractStep {
    let values = self.values
    let tree = try JSONValue.of(step).mapStrings { try ContractVariables.substitute($0, values) }
    let substituted = try JSONDecoder().decode(ContractStep.self, from: JSONEncoder().encode(tree))
    collectPasswords(substituted.operation)
    return substituted
  }

  private mutating func collectPasswords(_ operation: ContractOperation) {
    switch operation {
    case .signUp(let input), .signIn(let input), .reauthenticate(let input),
      .linkPassword(let input):
      secrets.insert(input.password)
    case .updatePassword(let password): secrets.insert(password)
    case .confirmPasswordReset(let input): secrets.insert(input.newPassword)
    case .concurrent(let input): input.operations.forEach { collectPasswords($0) }
    default: break
    }
  }

  /// Runs a step on the device of the `addDevice` step labelled `device`.
  private func executeOnDevice(_ operation: ContractOperation, device: String) async throws
    -> StepValue
  {
    guard let backend = devices[device] else {
      throw StepFailure(expected: "the device of step \"\(device)\"", actual: "no such device")
    }
    return try await operationContext.perform(operation, on: backend)
  }

  private mutating func execute(_ operation: ContractOperation, label: String?, index: Int)
    async throws -> StepValue
  {
    switch operation {
    case .addDevice:
      let device = try await deviceBackend()
      devices[label ?? "#\(index)"] = device
      return .none
    case .restart:
      do {
        backend = try await environment.makeBackend(sessionStore: store)
      } catch {
        throw StepFailure(expected: "a restarted backend", actual: describeError(error))
      }
      return .none
    case .advanceClock(let seconds):
      guard let clock = environment.clock else {
        throw StepFailure(expected: "a controllable clock", actual: "the environment has none")
      }
      clock.advance(by: seconds)
      return .none
    case .concurrent(let input):
      let context = operationContext
      let backends = try await concurrentBackends(input)
      let refreshesBefore = await environment.tokenRefreshRequests()
      let results = await withTaskGroup(of: (Int, Result<StepValue, any Error>).self) { group in
        for (number, operation) in input.operations.enumerated() {
          let backend = backends[number]
          group.addTask {
            do {
              return (number, .success(try await context.perform(operation, on: backend)))
            } catch {
              return (number, .failure(error))
            }
          }
        }
        var results: [(Int, Result<StepValue, any Error>)] = []
        for await result in group { results.append(result) }
        return results.sorted { $0.0 < $1.0 }.map(\.1)
      }
      for case .failure(let skip as ContractSkip) in results { throw skip }
      var counts: [String: Int] = [:]
      var values: [StepValue] = []
      // Each distinct failure once, for the report: the counts alone do not say why.
      var failures: [String] = []
      for result in results {
        counts[outcomeName(result), default: 0] += 1
        switch result {
        case .success(let value):
          secrets.formUnion(value.secrets)
          values.append(value)
        case .failure(let error):
          let text = describeError(error)
          if !failures.contains(text) { failures.append(text) }
        }
      }
      var refreshes: Int?
      if let refreshesBefore, let after = await environment.tokenRefreshRequests() {
        refreshes = after - refreshesBefore
      }
      return .outcomes(
        counts, values: values, refreshRequests: refreshes, failures: failures)
    case .authStateChanges:
      let collector = EventCollector(backend.authStateChanges)
      subscriptions[label ?? "#\(index)"] = collector
      latestSubscription = collector
      return .none
    case .expectEvents(let name):
      guard let collector = name.flatMap({ subscriptions[$0] }) ?? latestSubscription else {
        throw StepFailure(expected: "a subscription", actual: "none was started")
      }
      guard case .events(let expected) = contract.steps[index].expectation else { return .none }
      return .events(
        await collector.waitFor(
          count: expected.count, timeout: eventTimeout, settle: Self.eventSettleTime))
    default:
      let value = try await operationContext.perform(operation, on: backend)
      if case .verificationID(let id) = value { latestVerificationID = id }
      return value
    }
  }

  /// The backend each operation of a `concurrent` step runs on: this one, or with
  /// `devices`, a new backend per operation over a copy of the current session (a device
  /// each, signed in as the same user).
  private func concurrentBackends(_ input: ConcurrentInput) async throws -> [any UserBackend] {
    guard input.devices else {
      return Array(repeating: backend, count: input.operations.count)
    }
    var backends: [any UserBackend] = []
    for _ in input.operations { backends.append(try await deviceBackend()) }
    return backends
  }

  /// A new backend over a copy of the current session: another device signed in as the
  /// same user, holding the same tokens.
  private func deviceBackend() async throws -> any UserBackend {
    do {
      let state = try await store.load()
      return try await environment.makeBackend(sessionStore: InMemorySessionStore(state))
    } catch {
      throw StepFailure(expected: "a backend per device", actual: describeError(error))
    }
  }

  /// How long `expectEvents` keeps listening after the expected number of events arrived,
  /// so that an extra event published by the same operation is seen and fails the
  /// (exact) comparison.
  static let eventSettleTime: Duration = .milliseconds(50)

  private var operationContext: OperationContext {
    OperationContext(
      environment: environment, records: records, latestVerificationID: latestVerificationID,
      secrets: codes)
  }
}

/// Replaces every secret in `text` with `<redacted>`.
func redact(_ text: String, _ secrets: Set<String>) -> String {
  secrets.filter { $0.count >= 4 }.sorted { $0.count > $1.count }.reduce(text) {
    $0.replacingOccurrences(of: $1, with: "<redacted>")
  }
}

/// Collects the events of one `authStateChanges` stream in the background.
final class EventCollector: Sendable {
  private let events = LockedValue<[AuthStateChange]>([])
  private let task = LockedValue<Task<Void, Never>?>(nil)

  init(_ stream: AsyncStream<AuthStateChange>) {
    let handle = Task { [self] in
      for await change in stream { self.events.withLock { $0.append(change) } }
    }
    task.withLock { $0 = handle }
  }

  /// The events so far, after waiting until there are `count` or `timeout` has passed,
  /// and then `settle` more (so that events beyond `count` are seen too).
  func waitFor(count: Int, timeout: Duration, settle: Duration = .zero) async -> [AuthStateChange] {
    let deadline = ContinuousClock.now + timeout
    while events.withLock({ $0.count }) < count, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(5))
    }
    if settle > .zero, events.withLock({ $0.count }) >= count {
      try? await Task.sleep(for: settle)
    }
    return events.withLock { $0 }
  }

  /// Stops listening.
  func stop() { task.withLock { $0?.cancel() } }
}
