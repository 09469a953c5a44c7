import AccountDatabase
import FakeUserBackend
import Foundation
import UserBackendKit

/// 5. The fake in-process: sign-ups and sign-ins per second with 1,000 and 100,000 stored
/// users, and how the per-operation cost grows between them (target ≤ 1.5x).
///
/// The stores are SQLite `:memory:` (as in tests). The growth comparison uses PBKDF2 cost 1
/// for seeding and for the timed operations, so that it shows the storage and token work
/// rather than the (constant) hash; separate rows give the rates at the default cost of
/// 10,000 over a store seeded with password-less accounts.
enum FakeBackendBench {
  /// PBKDF2 rounds for seeding and for the growth comparison.
  static let cheapHashCost = 1
  /// PBKDF2 rounds of a default `UserStore` (what `baas` uses).
  static let defaultHashCost = 10_000
  /// The password of every benchmark user (in-process only, never printed).
  static let password = "bench-password-1"

  /// Runs the group.
  static func run(_ plan: BenchPlan) async -> BenchGroup {
    var group = BenchGroup(
      id: "fake", title: "5. Fake in-process (FakeUserBackend, SQLite :memory:)")
    do {
      var signUp: [Int: Double] = [:]
      var signIn: [Int: Double] = [:]
      for size in plan.fakeSizes {
        let store = try UserStore(passwordHashIterations: cheapHashCost)
        let seedSeconds = try seed(store, count: size, withPassword: true)
        group.notes.append(
          String(
            format: "seeded %@ users in %.1f s (PBKDF2 cost %d)", size.formatted(), seedSeconds,
            cheapHashCost))
        let (ups, ins) = try await measure(
          store: store, size: size, plan: plan, label: "\(size.formatted()) users")
        group.rows += [ups.row, ins.row]
        signUp[size] = ups.median
        signIn[size] = ins.median
      }
      if let size = plan.fakeSizes.first {
        // The default hash cost; seeded accounts without passwords keep seeding cheap.
        let store = try UserStore(passwordHashIterations: defaultHashCost)
        _ = try seed(store, count: size, withPassword: false)
        let (ups, ins) = try await measure(
          store: store, size: size, plan: plan, batch: max(plan.fakeBatch / 10, 5),
          label: "\(size.formatted()) users, PBKDF2 \(defaultHashCost.formatted())")
        group.rows += [ups.row, ins.row]
      }
      if let small = plan.fakeSizes.first, let large = plan.fakeSizes.last, small != large {
        group.ratios.append(
          BenchRatio(
            name: "sign-up cost, \(large.formatted()) / \(small.formatted()) users",
            numerator: signUp[small], denominator: signUp[large], target: 1.5))
        group.ratios.append(
          BenchRatio(
            name: "sign-in cost, \(large.formatted()) / \(small.formatted()) users",
            numerator: signIn[small], denominator: signIn[large], target: 1.5))
      }
      group.notes.append(
        "one caller; cost ratio = rate(small) / rate(large); growth rows hash with PBKDF2 cost "
          + "\(cheapHashCost) so storage and token work show; sign-ins pick random stored users")
    } catch {
      group.error = "\(error)"
    }
    return group
  }

  /// A row and its median rate.
  struct Measured {
    let row: BenchRow
    var median: Double? { row.statistics?.median }
  }

  /// Times sign-ups (new unique emails) and sign-ins: with the plan's batch size, of random
  /// seeded users; with an explicit `batch` (another hash cost), of the users just signed up.
  static func measure(
    store: UserStore, size: Int, plan: BenchPlan, batch: Int? = nil, label: String
  ) async throws -> (signUps: Measured, signIns: Measured) {
    let backend = FakeUserBackend(store: store, sessionStore: InMemorySessionStore())
    let perBatch = batch ?? plan.fakeBatch
    let tag = UUID().uuidString.prefix(8).lowercased()
    var created: [String] = []
    var batchNumber = 0
    let signUpSamples = try await BenchClock.repeated(
      warmUp: plan.warmUp, runs: plan.runs, perBatch: perBatch
    ) {
      batchNumber += 1
      for index in 0..<perBatch {
        let email = "new-\(tag)-\(batchNumber)-\(index)@bench.invalid"
        _ = try await backend.signUp(.email(email, password: password))
        created.append(email)
      }
    }
    let seededCost = batch == nil
    var generator = SystemRandomNumberGenerator()
    let signInSamples = try await BenchClock.repeated(
      warmUp: plan.warmUp, runs: plan.runs, perBatch: perBatch
    ) {
      for _ in 0..<perBatch {
        let email =
          seededCost
          ? seedEmail(Int.random(in: 0..<size, using: &generator))
          : created[Int.random(in: 0..<created.count, using: &generator)]
        _ = try await backend.signIn(.email(email, password: password))
      }
    }
    return (
      Measured(
        row: BenchRow(
          "sign-ups/s, \(label)", unit: .perSecond, samples: signUpSamples.map { 1 / $0 })),
      Measured(
        row: BenchRow(
          "sign-ins/s, \(label)", unit: .perSecond, samples: signInSamples.map { 1 / $0 }))
    )
  }

  /// The email of seeded user `index`.
  static func seedEmail(_ index: Int) -> String { "seed-\(index)@bench.invalid" }

  /// Creates `count` users in `store` (with the benchmark password, hashed at the store's
  /// cost, or without a password) and returns the seconds it took.
  static func seed(_ store: UserStore, count: Int, withPassword: Bool) throws -> Double {
    let start = BenchClock.now()
    for index in 0..<count {
      _ = try store.createUser(
        NewUser(email: seedEmail(index), password: withPassword ? password : nil))
    }
    return BenchClock.seconds(since: start)
  }
}
