print("recoverydeckd: not built yet")
