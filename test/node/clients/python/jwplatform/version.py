# -*- coding: utf-8 -*-
__version__ = '2.2.2'
