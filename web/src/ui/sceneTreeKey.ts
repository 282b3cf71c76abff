/**
 * Query key prefix of the scene tree (keyOf(sceneApi.tree) of api/call.ts): its own module, so
 * that the sign-in guard and the pages that change scenes can invalidate the tree without
 * loading the widget.
 */
export const SCENE_TREE_KEY = ['GET', '/service/share/tree'] as const;
