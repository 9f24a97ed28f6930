/** What other features may read of SLA: the open clocks (the assistant's tips). */
export { openSlaClocksOf } from "./sla.clocks";
