"""The service's routes, one module per resource: ``levels`` (the library and creation),
``check`` (verify and solve), ``health`` (liveness and readiness)."""
