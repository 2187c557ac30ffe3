/**
 * server-everything's simulated log messages ("Debug-level message" … "Emergency-level message",
 * and one spelled "Alert level-message"): the level it picks is random, so a check must take each.
 */
export const SIMULATED_LOG = /level[- ]message/;
