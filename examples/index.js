"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.exampleAgents = void 0;
const agent_1 = require("./assistant/agent");
/** Every example agent, served by `cadre dev` and `cadre worker` when no agent module is given. */
exports.exampleAgents = [agent_1.assistant];
//# sourceMappingURL=index.js.map