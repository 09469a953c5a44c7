import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Makes `directory` refuse new entries for every user, root included, and returns the
/// undo, or `nil` when that is impossible here.
///
/// An ordinary user gets mode 0500. Root ignores permission bits, so for root (the CI
/// user) the directory gets the Linux immutable attribute instead (`FS_IOC_SETFLAGS` with
/// `FS_IMMUTABLE_FL`, which needs `CAP_LINUX_IMMUTABLE`): then not even root can create a
/// file in it.
func makeUnwritable(_ directory: URL) -> (() -> Void)? {
  guard getuid() == 0 else {
    guard chmod(directory.path, 0o500) == 0 else { return nil }
    return { _ = chmod(directory.path, 0o700) }
  }
  #if os(Linux)
    // _IOR('f', 1, long) and _IOW('f', 2, long) on a 64-bit kernel; the flags are an int.
    let getFlags: UInt = 0x8008_6601
    let setFlags: UInt = 0x4008_6602
    let immutable: Int32 = 0x10
    func update(_ change: (Int32) -> Int32) -> Bool {
      let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY)
      guard descriptor >= 0 else { return false }
      defer { close(descriptor) }
      var flags: Int32 = 0
      guard ioctl(descriptor, getFlags, &flags) == 0 else { return false }
      flags = change(flags)
      return ioctl(descriptor, setFlags, &flags) == 0
    }
    guard update({ $0 | immutable }) else { return nil }
    return { _ = update { $0 & ~immutable } }
  #else
    return nil
  #endif
}
