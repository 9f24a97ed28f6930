// Quiet logs in tests unless asked for.
process.env.DESK_LOG_LEVEL ??= "silent";
