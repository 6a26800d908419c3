// Imported first by server.ts, before anything loads React: React chooses its development or
// production build when it is first loaded, and the development build renders several times slower.
// react-router-serve makes the same default.
// An empty NODE_ENV counts as unset.
if (!process.env.NODE_ENV) process.env.NODE_ENV = "production";

export {};
