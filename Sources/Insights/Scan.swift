/// Placeholder constants until the scan lands in the next commit.
public enum Scan {
    /// Health Engine: "|r| ≥ 0.25 floor".
    public static let minimumEffect = 0.25
}
