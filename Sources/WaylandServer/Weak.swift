/// A weak reference as a value, for collections of objects their clients own (a resource
/// keeps its Swift object alive, not the collection). One definition for the compositor and
/// liblodestone-pointer.
package struct Weak<T: AnyObject> {
    package weak var value: T?
    package init(_ value: T?) { self.value = value }
}
