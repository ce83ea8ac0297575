// zod (which the MCP SDK validates every message with) compiles a parser for each object schema
// the first time it parses with it, with `new Function`. That pays off after thousands of parses;
// a client process parses each kind of MCP message a few dozen times, so the compiling is most of
// the cost of its first tool calls (about a third of the first call's time, profiled). Schemas
// built from here on parse without compiling. Set before the SDK builds its message schemas,
// which it does on first use, hence the import of this module ahead of everything in index.ts.
import { config } from 'zod/v4/core';

config({ jitless: true });
