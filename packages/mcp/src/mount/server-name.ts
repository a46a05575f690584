/** What a server may be called: it names its cache file, its reports and its errors. */
export const SERVER_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
