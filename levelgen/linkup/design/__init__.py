"""Link-up design aids for a level editor: suggest a fix for an unsolvable board
(:mod:`.fix`) and fill the rest of a board drawn in part (:mod:`.fill`); the family table's
``fix`` and ``fill`` operations (:mod:`.answers`)."""
