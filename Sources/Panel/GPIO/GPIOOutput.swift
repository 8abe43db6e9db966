import Platform

/// A requested output line.
public protocol GPIOOutput: AnyObject {
    var offset: UInt32 { get }
    func set(high: Bool) throws(PanelError)
    func release()
}
