/**
 * The conversation module's front door: what routes and other modules may use. Everything else in
 * app/server/conversation/ is internal; ESLint (no-restricted-imports in eslint.config.js) refuses an import of it
 * from outside the module, so the module can change its insides without touching its callers.
 */
export { messageAction } from "./message-actions.server";
export { loadConversation, recordReadMarkAsOf, totalUnread, unreadCounts } from "./messages.server";
export { messagesOfPerson } from "./person-messages.server";
export { itemWaitingSql, lastAnswerAtSql, lockOverdueItems, overdueItemIds, waitingItemsOf } from "./request-item-records.server";
export { applicantRequestAction, staffRequestAction } from "./request-actions.server";
export { listRequestItems } from "./requests.server";
export { listStaffConversations } from "./staff-conversations.server";
export { listTimeline, recordEvent, recordStaffText } from "./timeline.server";
