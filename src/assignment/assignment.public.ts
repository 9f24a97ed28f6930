// What other features use of assignment: assigning a ticket by the workspace's rules (triage calls
// it after classifying when `assign_after_triage` is on).
export { autoAssignTicket } from "./assignment.service";
