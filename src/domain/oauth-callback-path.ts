/** Where GitHub sends a person back after sign-in: the path of the App's callback URL (PUBLIC_URL plus this). */
export const OAUTH_CALLBACK_PATH = "/oauth/callback";
