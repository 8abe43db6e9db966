print("recoverydeck: not built yet")
