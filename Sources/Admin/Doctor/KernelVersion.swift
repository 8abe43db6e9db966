/// A Linux kernel version as `major.minor.patch`, from `uname -r` or, on Debian, from `uname -v`
/// (Debian's release string "6.1.0-20-arm64" hides the upstream patch level; its version string
/// says "Debian 6.1.85-1").
public struct KernelVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var major: Int
    public var minor: Int
    public var patch: Int

    public init(_ major: Int, _ minor: Int, _ patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// The leading `a.b[.c]` of `text`, or nil.
    public init?(parsing text: some StringProtocol) {
        var numbers: [Int] = []
        var current = ""
        for c in text {
            if c.isASCII, c.isNumber {
                current.append(c)
            } else if c == ".", !current.isEmpty, numbers.count < 2 {
                numbers.append(Int(current)!)
                current = ""
            } else {
                break
            }
        }
        if let n = Int(current) { numbers.append(n) }
        guard numbers.count >= 2 else { return nil }
        self.init(numbers[0], numbers[1], numbers.count > 2 ? numbers[2] : 0)
    }

    /// The running kernel's upstream version from `uname` release and version strings.
    public init?(release: String, version: String) {
        // "#1 SMP PREEMPT_DYNAMIC Debian 6.1.85-1 (2024-04-11)"
        let words = version.split(separator: " ")
        if let i = words.firstIndex(of: "Debian"), i + 1 < words.count, let v = KernelVersion(parsing: words[i + 1]) {
            self = v
        } else if let v = KernelVersion(parsing: release) {
            self = v
        } else {
            return nil
        }
    }

    public var description: String { "\(major).\(minor).\(patch)" }

    public static func < (a: KernelVersion, b: KernelVersion) -> Bool {
        (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
    }
}

/// Kernels that reject the Polar H10's L2CAP Connection Parameter Update Request; the strap then
/// drops the link ("Unacceptable Connection Parameters", 0x3b) a fixed time after connecting: 150 s
/// in the report on Debian 12's 6.1.85 and on 6.8.8 (OpenHRV issue 39, May 2024), inside the
/// 3-minute morning protocol.
///
/// Cause: "Bluetooth: Enforce validation on max value of connection interval" (mainline
/// e4b019515f95, v6.8-rc7, February 2024) made l2cap_le_conn_param_update_req() reject any request
/// whose maximum interval exceeds the host's initial le_conn_max_interval. Fixed by "Bluetooth:
/// L2CAP: Fix rejecting L2CAP_CONN_PARAM_UPDATE_REQ" (mainline 806a5198c059, v6.10-rc5, June 2024).
/// Stable releases, from the stable review announcements: the check arrived in 4.19.309 and
/// 5.10.212 (seen), and in the same March 2024 batch 5.4.271, 5.15.151, 6.1.81, 6.6.21, 6.7.9; the
/// fix arrived in 5.4.279 and 6.1.95 (seen), and in the same June–July 2024 batch 4.19.317,
/// 5.10.221, 5.15.162, 6.6.35, 6.9.6. 6.7 and 6.8 reached end of life without the fix.
public enum StrapLinkKernelRule {
    /// Half-open affected ranges [from, to) per stable series.
    public static let affected: [(from: KernelVersion, to: KernelVersion)] = [
        (KernelVersion(4, 19, 309), KernelVersion(4, 19, 317)),
        (KernelVersion(5, 4, 271), KernelVersion(5, 4, 279)),
        (KernelVersion(5, 10, 212), KernelVersion(5, 10, 221)),
        (KernelVersion(5, 15, 151), KernelVersion(5, 15, 162)),
        (KernelVersion(6, 1, 81), KernelVersion(6, 1, 95)),
        (KernelVersion(6, 6, 21), KernelVersion(6, 6, 35)),
        (KernelVersion(6, 7, 9), KernelVersion(6, 8, 0)),
        (KernelVersion(6, 8, 0), KernelVersion(6, 9, 0)),
        (KernelVersion(6, 9, 0), KernelVersion(6, 9, 6)),
    ]

    public static func rejectsStrapUpdate(_ v: KernelVersion) -> Bool {
        affected.contains { $0.from <= v && v < $0.to }
    }
}
