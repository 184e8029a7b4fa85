"""``levelgen serve``: the HTTP service and its level library (needs the ``[serve]`` extra).

``app.create_app(settings)`` builds the FastAPI application: routes per resource under
``routes/``, settings in :mod:`.settings`, the library (SQLAlchemy) in :mod:`levelgen.library` with
pack jobs in :mod:`.jobs` made by :mod:`.runner`, the CPU work as plain functions in :mod:`.tasks`
run on the bounded process pool of :mod:`.work`, errors as problem documents
(:mod:`.problems`), request ids, the access log and the body cap in :mod:`.middleware`.
The handlers hold no game logic: they call the library through the tasks.
"""
