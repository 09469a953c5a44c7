print("baas: not built yet")
