import Foundation
import UserBackendKit

/// Server-side session state of the memory server: which refresh tokens it still honours.
/// A refresh token is `refresh-<user ID>-<number>` (``MemoryBackend/makeSession(_:isNewUser:)``).
extension MemoryServer {
  /// Revokes one refresh token (sign-out).
  func revoke(refreshToken: String) {
    _ = revokedRefreshTokens.withLock { $0.insert(refreshToken) }
  }

  /// Revokes every refresh token of `userID` issued so far (password change, deletion).
  func revokeEveryRefreshToken(of userID: String) {
    let from = nextNumber()
    refreshTokensValidFrom.withLock { $0[userID] = from }
  }

  /// Whether the server still honours `refreshToken` of `userID`.
  func isLive(refreshToken: String, userID: String) -> Bool {
    if revokedRefreshTokens.withLock({ $0.contains(refreshToken) }) { return false }
    guard let from = refreshTokensValidFrom.withLock({ $0[userID] }) else { return true }
    let number = refreshToken.split(separator: "-").last.flatMap { Int($0) } ?? 0
    return number > from
  }
}
