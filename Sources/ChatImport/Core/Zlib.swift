import CZlib
func _zlibVersion() -> String { String(cString: zlibVersion()) }
