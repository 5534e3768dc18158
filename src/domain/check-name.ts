/** The name of the bot's check run on a head: how the app finds its own and knows a re-run is meant for it. */
export const CHECK_NAME = "no-mistakes";
