import Foundation
import UserBackendKit

@testable import AccountDatabase

/// A fresh directory under the system temporary directory, unique per call.
func makeTemporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("fake-tests-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// An in-memory account store with cheap hashing and a manual clock.
func makeStore(clock: ManualClock = ManualClock(), phoneCodeLifetime: TimeInterval = 300) throws
  -> UserStore
{
  try UserStore(
    passwordHashIterations: 1_000, phoneCodeLifetime: phoneCodeLifetime, clock: clock)
}
