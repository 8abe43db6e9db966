print("h10sim: not built yet")
