resource "helm_release"""{repository=:bitnami
chart="kafka"set{name="r\n"}}