-- Vector seqs move from max(seq) + 1 to a counter row per workspace and kind (semantic_seqs):
-- seeded from the stored vectors so every workspace's seqs continue where they are.
INSERT INTO semantic_seqs (workspace_id, kind, last_seq)
SELECT workspace_id, kind, max(seq) FROM semantic_vectors WHERE true GROUP BY workspace_id, kind
ON CONFLICT (workspace_id, kind) DO NOTHING;
