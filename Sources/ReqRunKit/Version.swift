public let reqrunVersion = "0.1.0"
